import { z } from 'zod';
import { FIELD_LIMITS } from '../constants';
import { UserId, WorkspaceId } from '../ids';
import { Membership } from '../entities/user';
import { Workspace } from '../entities/workspace';
import { optionalText, requiredText, ResourceUrl, Role } from '../primitives';
import { FILE_RESPONSE, WorkspaceParams, type RouteDef } from './route';

/** The slug is derived from the name (slugify), never sent. */
export const CreateWorkspaceBody = z.object({
  name: requiredText('Name', FIELD_LIMITS.workspaceName),
  description: optionalText('Description', FIELD_LIMITS.workspaceDescription),
});
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBody>;

export const UpdateWorkspaceBody = CreateWorkspaceBody.partial();
export type UpdateWorkspaceBody = z.infer<typeof UpdateWorkspaceBody>;

export const WorkspacesResponse = z.array(Workspace);
export type WorkspacesResponse = z.infer<typeof WorkspacesResponse>;

export const MemberParams = z.object({ workspaceId: WorkspaceId, userId: UserId });
export type MemberParams = z.infer<typeof MemberParams>;

export const AddMemberBody = z.object({ userId: UserId, role: Role.default('user') });
export type AddMemberBody = z.infer<typeof AddMemberBody>;

export const UpdateMemberBody = z.object({ role: Role });
export type UpdateMemberBody = z.infer<typeof UpdateMemberBody>;

export const WorkspaceLogoResponse = z.object({ logoUrl: ResourceUrl });
export type WorkspaceLogoResponse = z.infer<typeof WorkspaceLogoResponse>;

const MemberRouteParams = z.object({ workspaceId: WorkspaceId });

/** `v`: the logo's version (from logoUrl); a URL naming the current one is cached for good. */
export const WorkspaceLogoQuery = z.object({ v: z.string().max(64).optional() });
export type WorkspaceLogoQuery = z.infer<typeof WorkspaceLogoQuery>;

export const WORKSPACE_ROUTES = {
  /** The signed-in user's workspaces (a 403 is read as an empty list). */
  mine: {
    method: 'GET',
    path: '/api/user/workspaces',
    service: 'workspace',
    access: 'signed-in',
    workspaceFree: true,
    response: WorkspacesResponse,
  },
  /** Every workspace (super admin). */
  list: {
    method: 'GET',
    path: '/api/workspaces',
    service: 'workspace',
    access: 'super-admin',
    response: WorkspacesResponse,
  },
  create: {
    method: 'POST',
    path: '/api/workspaces',
    service: 'workspace',
    access: 'super-admin',
    status: 201,
    body: CreateWorkspaceBody,
    response: Workspace,
  },
  update: {
    method: 'PATCH',
    path: '/api/workspaces/:id',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'super-admin',
    params: WorkspaceParams,
    body: UpdateWorkspaceBody,
    response: Workspace,
  },
  remove: {
    method: 'DELETE',
    path: '/api/workspaces/:id',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'super-admin',
    params: WorkspaceParams,
    response: null,
  },
  uploadLogo: {
    method: 'POST',
    path: '/api/workspaces/:id/logo',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'super-admin',
    params: WorkspaceParams,
    upload: { field: 'logo', maxFiles: 1 },
    response: WorkspaceLogoResponse,
  },
  /** The logo's bytes (png, jpeg or webp). */
  logo: {
    method: 'GET',
    path: '/api/workspaces/:id/logo',
    workspaceParam: 'id',
    service: 'workspace',
    access: 'member',
    params: WorkspaceParams,
    query: WorkspaceLogoQuery,
    response: FILE_RESPONSE,
  },
  addMember: {
    method: 'POST',
    path: '/api/workspaces/:workspaceId/users',
    service: 'workspace',
    access: 'workspace-admin',
    status: 201,
    params: MemberRouteParams,
    body: AddMemberBody,
    response: Membership,
  },
  removeMember: {
    method: 'DELETE',
    path: '/api/workspaces/:workspaceId/users/:userId',
    service: 'workspace',
    access: 'workspace-admin',
    params: MemberParams,
    response: null,
  },
  updateMember: {
    method: 'PATCH',
    path: '/api/workspaces/:workspaceId/users/:userId',
    service: 'workspace',
    access: 'workspace-admin',
    params: MemberParams,
    body: UpdateMemberBody,
    response: Membership,
  },
} as const satisfies Record<string, RouteDef>;
