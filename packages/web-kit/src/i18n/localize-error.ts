import { ERROR_DEFAULT_MESSAGES } from '@aict/contracts/constants';
import { DUTCH_ERROR_MESSAGES } from './error-messages';
import { currentLanguage, type Language } from './i18n';
import { localizeValidationMessage } from './localize-validation';

/**
 * The server's error message in the chosen language: in Dutch, a known code whose message is
 * the server's default text is shown in Dutch, and a validation message the contracts word is
 * translated (localize-validation.ts); anything else (a more precise message, an unknown code)
 * stays as the server sent it.
 */
export function localizeServerMessage(
  code: unknown,
  message: string,
  language: Language = currentLanguage(),
): string {
  if (language === 'en' || typeof code !== 'string') return message;
  if (!Object.hasOwn(DUTCH_ERROR_MESSAGES, code)) return message;
  const known = code as keyof typeof DUTCH_ERROR_MESSAGES;
  if (ERROR_DEFAULT_MESSAGES[known] === message) return DUTCH_ERROR_MESSAGES[known];
  return code === 'VALIDATION.FAILED' ? localizeValidationMessage(message, language) : message;
}
