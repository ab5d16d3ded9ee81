import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { Role } from '../primitives';

/** The languages of the UI (English is the default). */
export const UiLanguage = z.enum(['en', 'nl']);
export type UiLanguage = z.infer<typeof UiLanguage>;

/**
 * The user as the client sees it; `workspaceRoles` maps a workspace id (as a string) to a role;
 * `language` is the UI language the user picked (absent until they pick one).
 */
export const User = z.object({
  id: EntityId,
  username: z.string(),
  email: z.string(),
  isSuperAdmin: z.boolean(),
  workspaceRoles: z.record(z.string().regex(/^[1-9]\d*$/), Role),
  language: UiLanguage.optional(),
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
