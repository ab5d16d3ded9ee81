import { ERROR_MESSAGES } from './error-messages';
import { currentLanguage, type Language } from './i18n';

/**
 * The server's error message in the chosen language: in Dutch, a known code whose message is
 * the server's default text is shown in Dutch; anything else (a more precise message, an
 * unknown code) stays as the server sent it.
 */
export function localizeServerMessage(
  code: unknown,
  message: string,
  language: Language = currentLanguage(),
): string {
  if (language === 'en' || typeof code !== 'string') return message;
  const known = (ERROR_MESSAGES as Record<string, { en: string; nl: string } | undefined>)[code];
  return known && known.en === message ? known.nl : message;
}
