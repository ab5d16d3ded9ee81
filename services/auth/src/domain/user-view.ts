import type { EventData } from '@aict/contracts';
import type { WorkspaceRoles } from '../data/membership.repository';
import type { UserRecord } from '../data/user.model';

/** A user as a use case hands it to its route: the record and the roles the caller may see. */
export interface UserView {
  user: UserRecord;
  roles: WorkspaceRoles;
}

/** The data of `user.created` / `user.updated`: never the hash or the token version. */
export function userSnapshot(user: UserRecord): EventData<'user.created'> {
  return {
    userId: user._id,
    username: user.username,
    email: user.email,
    isSuperAdmin: user.isSuperAdmin,
  };
}
