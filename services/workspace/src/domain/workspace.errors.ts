import { ERRORS, type ErrorCode } from '@aict/contracts';
import { AppError } from '@aict/service-kit';

/** An AppError with the status and default message contracts give the code. */
export function appError(code: ErrorCode, message?: string): AppError {
  const known = ERRORS[code];
  return new AppError(code, known.status, message ?? known.message);
}

export const workspaceNotFound = () => appError('WORKSPACE.NOT_FOUND');
export const workspaceNameTaken = () => appError('WORKSPACE.NAME_TAKEN');
export const defaultWorkspaceNotDeletable = () => appError('WORKSPACE.DEFAULT_NOT_DELETABLE');
export const membershipNotFound = () => appError('MEMBERSHIP.NOT_FOUND');
export const userNotFound = () => appError('USER.NOT_FOUND');
export const logoNotFound = () => appError('FILE.NOT_FOUND', 'This workspace has no logo');
