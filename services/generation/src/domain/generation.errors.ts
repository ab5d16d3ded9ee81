import { ERRORS } from '@aict/contracts';
import { AppError, assertImagePixels as assertPixelLimit } from '@aict/service-kit';
import { codeError } from '../provider/provider-errors';

export { codeError };

export const promptNotFound = () => codeError('PROMPT.NOT_FOUND');
export const contentNotFound = () => codeError('CONTENT.NOT_FOUND');
export const fileNotFound = () => codeError('FILE.NOT_FOUND');
export const keyMissing = () => codeError('PROVIDER.KEY_MISSING');
export const modelNotAllowed = (message?: string) =>
  codeError('GENERATION.MODEL_NOT_ALLOWED', message);
export const workspaceBusy = (retryAfterSeconds: number) =>
  codeError('GENERATION.WORKSPACE_BUSY', undefined, { 'retry-after': String(retryAfterSeconds) });
export const idempotencyConflict = () => codeError('GENERATION.IDEMPOTENCY_CONFLICT');
/** 403: the caller's rights went while generating (live-generations.ts); nothing is saved. */
export const accessRevoked = () => codeError('GENERATION.ACCESS_REVOKED');
/** What a request that names no workspace is told (400), by what it came to do. */
export const SELECT_A_WORKSPACE = {
  generating: 'Select a workspace before generating content.',
  uploading: 'Select a workspace before uploading files.',
  usage: 'Select a workspace.',
} as const;
/** 400: a provider call or an upload without a workspace (never paid by the global key). */
export { workspaceRequired } from '@aict/service-kit';
/** 422: a document that is broken, or that reached a reading limit (`limit`: that sentence). */
export const fileUnreadable = (name: string, limit?: string) =>
  new AppError(
    'FILE.UNREADABLE',
    ERRORS['FILE.UNREADABLE'].status,
    limit ? `The file could not be read: ${name}. ${limit}` : `The file could not be read: ${name}`,
  );
export const notAnImage = () =>
  codeError('FILE.INVALID_TYPE', 'Please upload an image file (PNG, JPEG or WebP).');

/** An image whose header declares more than MAX_IMAGE_PIXELS: 413, read before any decode. */
export function assertImagePixels(bytes: Buffer): void {
  if (assertPixelLimit(bytes) === 'unreadable') throw notAnImage();
}
