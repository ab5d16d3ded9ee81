import { eventSchema, type CreateUserBody, type TrustedContext } from '@aict/contracts';
import { roleIn, type Envelope } from '@aict/service-kit';
import type { WorkspaceRoles } from '../data/membership.repository';
import { applyMembershipChange } from './apply-membership-change';
import type { AuthDeps } from './auth-deps';
import { createAccount } from './create-account';
import { tombstoneUser } from './delete-user';
import { retryOnConflict, withUserLock } from './load-manageable-user';
import { adminScope } from './user-access';
import { userErrors } from './user.errors';
import type { UserView } from './user-view';

/**
 * `POST /api/users` (an administrator adds a user): create the account, then ask the
 * workspace service to add the user to the workspace with the role.
 *
 * - A super admin may name a workspace or none. If adding fails the user exists anyway
 *   (201 without the role): the front-end assigns the workspace itself afterwards and says
 *   'Created User but Failed to Assign Workspace' when that fails too.
 * - A workspace admin's new user belongs to their workspace (the body's `workspaceId`,
 *   else the current one; one they administer). A user they could not place there would be
 *   one nobody but a super admin could manage or delete, so if adding fails the account is
 *   deleted again and the answer is 503 `USER.NOT_CREATED`.
 */
export async function createUser(
  deps: AuthDeps,
  ctx: TrustedContext,
  body: CreateUserBody,
): Promise<UserView & { events: Envelope[] }> {
  const scope = adminScope(ctx);
  const workspaceId = body.workspaceId ?? (scope.kind === 'workspace' ? scope.workspaceId : null);
  if (workspaceId !== null && roleIn(ctx, workspaceId) !== 'admin') throw userErrors.forbidden();
  const { user, events } = await createAccount(deps, {
    username: body.username,
    email: body.email,
    password: body.password,
    isSuperAdmin: false,
    auditAs: workspaceId === null ? ctx : { ...ctx, ws: workspaceId },
  });
  if (workspaceId === null) return { user, roles: {}, events };

  const assigned = await assignWorkspace(deps, workspaceId, user._id, body.role);
  if (!assigned.placed && scope.kind === 'workspace') {
    await undoCreation(deps, user._id);
    throw userErrors.notCreated();
  }
  return { user, roles: assigned.roles, events: [...events, ...assigned.events] };
}

/**
 * Deletes an account just created (with its event) and frees its name and e-mail, as a
 * delete does: reloaded and tried again if it changed meanwhile, never freed while it lives.
 */
async function undoCreation(deps: AuthDeps, userId: string): Promise<void> {
  await retryOnConflict(() =>
    withUserLock(deps, userId, async () => {
      const user = await deps.users.findById(userId);
      if (!user) return true; // gone already
      const events: Envelope[] = [deps.events.envelope('user.deleted', { userId })];
      return (await tombstoneUser(deps, user, events)) || undefined;
    }),
  );
}

async function assignWorkspace(
  deps: AuthDeps,
  workspaceId: number,
  userId: string,
  role: CreateUserBody['role'],
): Promise<{ placed: boolean; roles: WorkspaceRoles; events: Envelope[] }> {
  try {
    const reply = await deps.workspace.addMember({ workspaceId, userId, role });
    const events = reply.events as unknown as Envelope[];
    // The read model learns it now rather than when the event arrives (applied once either way).
    for (const raw of events) {
      const change = eventSchema('membership.changed').safeParse(raw);
      if (change.success) await applyMembershipChange(deps, change.data);
    }
    return { placed: true, roles: { [String(workspaceId)]: reply.membership.role }, events };
  } catch (err) {
    deps.logger.warn(
      { err, workspaceId, userId },
      'user created, but adding it to the workspace failed',
    );
    return { placed: false, roles: {}, events: [] };
  }
}
