export { createHttpApp, jsonBody, type HttpAppOptions } from './app';
export { checkResponses } from './response-check';
export { startServer, type ServerHandle, type StartServerOptions } from './server';
export { requestId, isWellFormedRequestId, REQUEST_ID_HEADER } from './request-id';
export { accessLog, safeUrl, type AccessLogOptions } from './access-log';
export { validate, type ValidateSchemas } from './validate';
export {
  errorHandler,
  notFound,
  toHttpError,
  validationFailed,
  type ErrorBody,
  type HttpError,
  type IssueDetail,
} from './error-handler';
export {
  assertAdmin,
  assertMember,
  CONTEXT_TOKEN_TYPE,
  assertSuperAdmin,
  contextOf,
  isAdminIn,
  privateKeyOf,
  publicKeyOf,
  requireContext,
  roleIn,
  signContext,
  verifyContext,
  workspaceInView,
  type KeyInput,
} from './trusted-context';
export {
  DEFAULT_CLOCK_SKEW_SECONDS,
  keyIdOf,
  keyRing,
  verifyPinnedToken,
  type PinnedToken,
} from './signed-token';
export {
  fieldsOf,
  workspaceRequired,
  RESPONDED,
  routeMounter,
  type MountOptions,
  type MountRoute,
  type RouteAnswer,
  type RouteBody,
  type RouteCall,
  type RouteHandler,
  type RouteMounterOptions,
  type RouteParams,
  type RouteQuery,
} from './mount';
