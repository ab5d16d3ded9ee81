import { z } from 'zod';
import { FIELD_LIMITS, PASSWORD_MIN_LENGTH } from '../constants';
import { User } from '../entities/user';
import { requiredText } from '../primitives';
import type { RouteDef } from './route';

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
} as const satisfies Record<string, RouteDef>;
