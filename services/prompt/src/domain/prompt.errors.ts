import { ERRORS, MAX_REFERENCE_IMAGES } from '@aict/contracts';
import { AppError } from '@aict/service-kit';

// The prompt service's errors. Messages are user-facing, in the SPEC's words where it has them.

export const promptNotFound = () =>
  AppError.notFound('PROMPT.NOT_FOUND', ERRORS['PROMPT.NOT_FOUND'].message);

export const defaultPromptNotFound = () =>
  AppError.notFound('PROMPT.DEFAULT_NOT_FOUND', ERRORS['PROMPT.DEFAULT_NOT_FOUND'].message);

export const workspaceRequired = () =>
  AppError.badRequest('VALIDATION.FAILED', 'Workspace id is required', [
    { path: 'workspaceId', message: 'Workspace id is required' },
  ]);

/** A field of the request that cannot be accepted, as the validation middleware words it. */
export const invalidField = (path: string, message: string) =>
  AppError.badRequest('VALIDATION.FAILED', message, [{ path, message }]);

export const createForbidden = () =>
  AppError.forbidden('Only administrators can create new prompts.');

export const editForbidden = () =>
  AppError.forbidden("Only administrators and the prompt's owner can edit this prompt.");

export const deleteForbidden = () =>
  AppError.forbidden("Only administrators and the prompt's creator can delete this prompt.");

/** Publishing beyond a workspace is the super admin's act (decision of 2026-11-24). */
export const publishForbidden = () =>
  AppError.forbidden('Only super administrators can publish a prompt to every workspace.');

export const publishedChangeForbidden = () =>
  AppError.forbidden('Only super administrators can change a prompt published to every workspace.');

export const defaultFlagForbidden = () =>
  AppError.forbidden('Only administrators can set the default prompt.');

export const workspaceFull = (max: number) =>
  AppError.conflict('PROMPT.LIMIT_REACHED', `A workspace can hold at most ${max} prompts.`);

export const publicFull = (max: number) =>
  AppError.conflict('PROMPT.PUBLIC_LIMIT_REACHED', `There can be at most ${max} public prompts.`);

export const busyPrompt = () =>
  AppError.conflict(
    'PROMPT.CONFLICT',
    'The prompt was changed by someone else at the same time. Please try again.',
  );

/** SPEC §8: 'Maximum images reached' - 'You can only upload up to 4 reference images.' */
export const referenceLimitReached = () =>
  AppError.badRequest('PROMPT.REFERENCE_LIMIT', ERRORS['PROMPT.REFERENCE_LIMIT'].message, {
    title: 'Maximum images reached',
    max: MAX_REFERENCE_IMAGES,
  });

/** SPEC §2: the 'Reference Image' card is for image prompts that use gpt-image-1. */
export const referenceNotAllowed = () =>
  AppError.badRequest(
    'PROMPT.REFERENCE_NOT_ALLOWED',
    'Reference images can only be added to image prompts that use gpt-image-1.',
  );

export const referenceImageNotFound = () =>
  AppError.notFound('PROMPT.REFERENCE_NOT_FOUND', 'Reference image not found');

/** SPEC §5: 'Please upload an image file.' (toast title 'Invalid file'). */
export const notAnImage = () =>
  new AppError('FILE.INVALID_TYPE', 400, 'Please upload an image file.', {
    details: { title: 'Invalid file', accepted: ['image/png', 'image/jpeg', 'image/webp'] },
  });

export const imageTooLarge = (maxBytes: number) =>
  new AppError(
    'FILE.TOO_LARGE',
    413,
    `The reference image must be at most ${formatMegabytes(maxBytes)}.`,
    { details: { title: 'Upload failed', maxBytes } },
  );

export const imageTooManyPixels = (maxPixels: number) =>
  new AppError(
    'FILE.TOO_LARGE',
    413,
    `The reference image must be at most ${Math.floor(maxPixels / 1_000_000)} megapixels.`,
    { details: { title: 'Upload failed', maxPixels } },
  );

function formatMegabytes(bytes: number): string {
  const round = (n: number) => Math.round(n * 100) / 100;
  return bytes >= 1024 * 1024 ? `${round(bytes / 1024 / 1024)} MB` : `${round(bytes / 1024)} KB`;
}

/** Over request/reply: a workspace the caller is not a member of (what the gateway answers). */
export const workspaceForbidden = () =>
  AppError.forbidden(ERRORS['WORKSPACE.FORBIDDEN'].message, 'WORKSPACE.FORBIDDEN');

/** Prompt versions (issue 18): admins of the prompt's workspace and super admins only. */
export const versionsForbidden = () =>
  AppError.forbidden("Only administrators of the prompt's workspace can see its versions.");

/** Template results (issue 18): as the versions, admins of the prompt's workspace only. */
export const resultsForbidden = () =>
  AppError.forbidden("Only administrators of the prompt's workspace can see its results.");

export const versionNotFound = (version: number) =>
  AppError.notFound(
    'PROMPT.VERSION_NOT_FOUND',
    `Version ${version} of this prompt was not found (it may be older than the versions kept).`,
  );

/** A restore that would replace an edit made since the caller looked. */
export const promptMovedOn = () =>
  AppError.conflict(
    'PROMPT.CONFLICT',
    'The prompt was changed by someone else since you opened its versions. Review the latest version and try again.',
  );
