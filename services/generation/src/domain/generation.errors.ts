import { ERRORS } from '@aict/contracts';
import { AppError } from '@aict/service-kit';
import { codeError } from '../provider/provider-errors';

export { codeError };

export const promptNotFound = () => codeError('PROMPT.NOT_FOUND');
export const contentNotFound = () => codeError('CONTENT.NOT_FOUND');
export const fileNotFound = () => codeError('FILE.NOT_FOUND');
export const keyMissing = () => codeError('PROVIDER.KEY_MISSING');
export const modelNotAllowed = (message?: string) =>
  codeError('GENERATION.MODEL_NOT_ALLOWED', message);
export const idempotencyConflict = () => codeError('GENERATION.IDEMPOTENCY_CONFLICT');
export const fileUnreadable = (name: string) =>
  new AppError(
    'FILE.UNREADABLE',
    ERRORS['FILE.UNREADABLE'].status,
    `The file could not be read: ${name}`,
  );
export const notAnImage = () =>
  codeError('FILE.INVALID_TYPE', 'Please upload an image file (PNG, JPEG or WebP).');
