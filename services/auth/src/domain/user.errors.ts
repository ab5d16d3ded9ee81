import { AppError } from '@aict/service-kit';
import { ERRORS, type ErrorCode } from '@aict/contracts';

const fromCatalogue = (code: ErrorCode) =>
  new AppError(code, ERRORS[code].status, ERRORS[code].message);

export const userErrors = {
  /** The same answer for an unknown user and a wrong password. */
  invalidCredentials: () => fromCatalogue('AUTH.INVALID_CREDENTIALS'),
  unauthenticated: () => fromCatalogue('AUTH.UNAUTHENTICATED'),
  forbidden: () => fromCatalogue('AUTH.FORBIDDEN'),
  notFound: () => fromCatalogue('USER.NOT_FOUND'),
  usernameTaken: () => fromCatalogue('USER.USERNAME_TAKEN'),
  emailTaken: () => fromCatalogue('USER.EMAIL_TAKEN'),
  cannotDeleteSelf: () => fromCatalogue('USER.CANNOT_DELETE_SELF'),
  cannotChangeOwnSuperAdmin: () => fromCatalogue('USER.CANNOT_CHANGE_OWN_SUPER_ADMIN'),
  notCreated: () => fromCatalogue('USER.NOT_CREATED'),
  changedMeanwhile: () =>
    AppError.conflict('USER.CHANGED', 'The user was changed meanwhile; please try again.'),
};
