import { ERRORS } from '@aict/contracts';
import { AppError } from '@aict/service-kit';

// The content service's errors. Messages are user-facing, in the SPEC's words where it has them.

export const contentNotFound = () =>
  AppError.notFound('CONTENT.NOT_FOUND', ERRORS['CONTENT.NOT_FOUND'].message);

export const deleteForbidden = () =>
  AppError.forbidden(
    "Only the content's owner and the administrators of its workspace can delete it.",
  );

export const reviewForbidden = (action: 'submit' | 'decide') =>
  AppError.forbidden(
    action === 'submit'
      ? 'Only the author of a content can submit it for review.'
      : "Only the administrators of the content's workspace can approve it or request changes.",
  );

export const reviewConflict = () =>
  AppError.conflict('CONTENT.REVIEW_CONFLICT', ERRORS['CONTENT.REVIEW_CONFLICT'].message);

export const invalidCursor = () =>
  AppError.badRequest('VALIDATION.FAILED', 'Invalid cursor', [
    { path: 'cursor', message: 'Invalid cursor' },
  ]);
