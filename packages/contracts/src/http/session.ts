import { z } from 'zod';
import { FIELD_LIMITS, PASSWORD_MIN_LENGTH } from '../constants';
import { User } from '../entities/user';
import { requiredText } from '../primitives';
import { REDIRECT_RESPONSE, type RouteDef } from './route';

const INVALID_EMAIL = 'Please enter a valid email';

export function usernameField(requiredMessage = 'Username is required') {
  return requiredText('Username', FIELD_LIMITS.usernameMax, requiredMessage).min(
    FIELD_LIMITS.usernameMin,
    `Username must be at least ${FIELD_LIMITS.usernameMin} characters`,
  );
}

/** Trimmed and lower-cased. */
export function emailField(requiredMessage = INVALID_EMAIL) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .toLowerCase()
    .pipe(z.email(INVALID_EMAIL).max(FIELD_LIMITS.emailMax, INVALID_EMAIL));
}

/** A password being set: never trimmed. */
export function newPasswordField(requiredMessage = 'Password is required') {
  return z
    .string({ error: requiredMessage })
    .min(1, { error: requiredMessage, abort: true })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(
      FIELD_LIMITS.passwordMax,
      `Password must be at most ${FIELD_LIMITS.passwordMax} characters`,
    );
}

export const LoginBody = z.object({
  username: requiredText('Username', FIELD_LIMITS.usernameMax),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(FIELD_LIMITS.passwordMax, 'Password is too long'),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const RegisterBody = z.object({
  username: usernameField(),
  email: emailField(),
  password: newPasswordField(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

/** Whether single sign-on (OpenID Connect) is on, and the label of its button. */
export const OidcStatus = z.object({
  enabled: z.boolean(),
  /** "Sign in with <label>"; null when SSO is off. */
  label: z.string().nullable(),
});
export type OidcStatus = z.infer<typeof OidcStatus>;

/** The provider's answer to GET /api/auth/oidc/callback (checked by openid-client itself). */
export const OidcCallbackQuery = z
  .object({ code: z.string().optional(), state: z.string().optional() })
  .loose();

export const SESSION_ROUTES = {
  /** 401 when not signed in: the client treats it as "no user". */
  currentUser: {
    method: 'GET',
    path: '/api/user',
    service: 'auth',
    access: 'public',
    response: User,
  },
  login: {
    method: 'POST',
    path: '/api/login',
    service: 'auth',
    access: 'public',
    body: LoginBody,
    response: User,
  },
  register: {
    method: 'POST',
    path: '/api/register',
    service: 'auth',
    access: 'public',
    status: 201,
    body: RegisterBody,
    response: User,
  },
  logout: {
    method: 'POST',
    path: '/api/logout',
    service: 'auth',
    access: 'public',
    response: null,
  },
  /** Single sign-on: on or off, and the button's label. */
  oidcStatus: {
    method: 'GET',
    path: '/api/auth/oidc',
    service: 'auth',
    access: 'public',
    response: OidcStatus,
  },
  /** Single sign-on, step 1: 302 to the provider (authorization code, state, nonce, PKCE). */
  oidcLogin: {
    method: 'GET',
    path: '/api/auth/oidc/login',
    service: 'auth',
    access: 'public',
    response: REDIRECT_RESPONSE,
  },
  /**
   * Single sign-on, step 2: the provider sends the browser back here; sets the session
   * cookie and 302 to the app (or to `/login?sso=failed` when the sign-in was refused).
   */
  oidcCallback: {
    method: 'GET',
    path: '/api/auth/oidc/callback',
    service: 'auth',
    access: 'public',
    query: OidcCallbackQuery,
    response: REDIRECT_RESPONSE,
  },
} as const satisfies Record<string, RouteDef>;
