import { ERROR_DEFAULT_MESSAGES } from '@aict/contracts/constants';
import { DUTCH_ERROR_MESSAGES } from './error-messages';
import { currentLanguage, i18n, type Language } from './i18n';
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

/** The toast title key of each attachment problem (SPEC §5's English titles, translated). */
const ATTACHMENT_PROBLEM_TITLES = {
  'FILE.INVALID_TYPE': 'chat.attachInvalidType',
  'FILE.TOO_LARGE': 'chat.attachTooLarge',
  'FILE.TOO_MANY': 'chat.attachTooMany',
  'FILE.TOTAL_TOO_LARGE': 'chat.attachTotalTooLarge',
} as const;

/**
 * A problem of checkChatAttachments (English, as SPEC words it) in the chosen language: its
 * title from the resources, its description as the server's message for its code.
 */
export function localizeAttachmentProblem(
  problem: { code: string; title: string; description: string },
  language: Language = currentLanguage(),
): { title: string; description: string } {
  const key = Object.hasOwn(ATTACHMENT_PROBLEM_TITLES, problem.code)
    ? ATTACHMENT_PROBLEM_TITLES[problem.code as keyof typeof ATTACHMENT_PROBLEM_TITLES]
    : undefined;
  return {
    title: key ? i18n.t(key, { lng: language }) : problem.title,
    description: localizeServerMessage(problem.code, problem.description, language),
  };
}
