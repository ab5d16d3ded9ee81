import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { Role } from '../primitives';

/** The user as the client sees it; `workspaceRoles` maps a workspace id (as a string) to a role. */
export const User = z.object({
  id: EntityId,
  username: z.string(),
  email: z.string(),
  isSuperAdmin: z.boolean(),
  workspaceRoles: z.record(z.string().regex(/^[1-9]\d*$/), Role),
});
export type User = z.infer<typeof User>;

export const Membership = z.object({
  workspaceId: WorkspaceId,
  userId: EntityId,
  role: Role,
});
export type Membership = z.infer<typeof Membership>;

/** One of a user's workspace assignments (GET /api/users/{id}/workspaces). */
export const UserWorkspaceItem = Membership.extend({ workspaceName: z.string() });
export type UserWorkspaceItem = z.infer<typeof UserWorkspaceItem>;
