import { z } from 'zod';
import { WorkspaceId } from '../ids';
import { UiLanguage, User, UserWorkspaceItem } from '../entities/user';
import { Role } from '../primitives';
import { UserIdParams, type RouteDef } from './route';
import { emailField, newPasswordField, usernameField } from './session';

const MISSING_FIELDS = 'Missing Fields: Please fill out all required fields.';

/** A super admin may also assign a workspace (null: none) with a role (default 'user'). */
export const CreateUserBody = z.object({
  username: usernameField(MISSING_FIELDS),
  email: emailField(MISSING_FIELDS),
  password: newPasswordField(MISSING_FIELDS),
  workspaceId: WorkspaceId.nullish(),
  role: Role.default('user'),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z.object({
  username: usernameField(),
  email: emailField(),
  /** Super administrators only; changing it ends the user's sessions. */
  isSuperAdmin: z.boolean().optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** PATCH /api/user: the signed-in user's own preferences (the UI language). */
export const UpdateOwnUserBody = z.object({
  language: z.enum(UiLanguage.options, { message: 'Choose English (en) or Dutch (nl).' }),
});
export type UpdateOwnUserBody = z.infer<typeof UpdateOwnUserBody>;

export const ResetPasswordBody = z.object({ password: newPasswordField('Missing Password') });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const UsersResponse = z.array(User);
export type UsersResponse = z.infer<typeof UsersResponse>;

export const UserWorkspacesResponse = z.array(UserWorkspaceItem);
export type UserWorkspacesResponse = z.infer<typeof UserWorkspacesResponse>;

export const USER_ROUTES = {
  /** The signed-in user's own preferences; saved whatever workspace the front-end has stored. */
  updateOwn: {
    method: 'PATCH',
    path: '/api/user',
    service: 'auth',
    access: 'signed-in',
    workspaceFree: true,
    body: UpdateOwnUserBody,
    response: User,
  },
  list: {
    method: 'GET',
    path: '/api/users',
    service: 'auth',
    access: 'workspace-admin',
    response: UsersResponse,
  },
  create: {
    method: 'POST',
    path: '/api/users',
    service: 'auth',
    access: 'workspace-admin',
    workspaceByUseCase: true,
    status: 201,
    body: CreateUserBody,
    response: User,
  },
  update: {
    method: 'PUT',
    path: '/api/users/:id',
    service: 'auth',
    access: 'workspace-admin',
    params: UserIdParams,
    body: UpdateUserBody,
    response: User,
  },
  remove: {
    method: 'DELETE',
    path: '/api/users/:id',
    service: 'auth',
    access: 'workspace-admin',
    params: UserIdParams,
    response: null,
  },
  resetPassword: {
    method: 'POST',
    path: '/api/users/:id/reset-password',
    service: 'auth',
    access: 'workspace-admin',
    params: UserIdParams,
    body: ResetPasswordBody,
    response: null,
  },
  /** Sent with X-Workspace-ID: a workspace admin gets only that workspace's assignment. */
  workspaces: {
    method: 'GET',
    path: '/api/users/:id/workspaces',
    /** Mounted by the workspace service, which holds the memberships. */
    service: 'workspace',
    access: 'workspace-admin',
    params: UserIdParams,
    response: UserWorkspacesResponse,
  },
} as const satisfies Record<string, RouteDef>;
