import type { User } from '@aict/contracts';
import type { WorkspaceRoles } from '../data/membership.repository';
import type { UserRecord } from '../data/user.model';

/** The only place a user record becomes a response: never the hash or the token version. */
export function presentUser(user: UserRecord, workspaceRoles: WorkspaceRoles): User {
  return {
    id: user._id,
    username: user.username,
    email: user.email,
    isSuperAdmin: user.isSuperAdmin,
    workspaceRoles: { ...workspaceRoles },
    ...(user.language ? { language: user.language } : {}),
  };
}
