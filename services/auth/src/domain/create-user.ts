import { eventSchema, type CreateUserBody, type TrustedContext, type User } from '@aict/contracts';
import { roleIn, type Envelope } from '@aict/service-kit';
import type { WorkspaceRoles } from '../data/membership.repository';
import { presentUser } from '../presenters/user.presenter';
import { applyMembershipChange } from './apply-membership-change';
import type { AuthDeps } from './auth-deps';
import { createAccount } from './create-account';
import { adminScope } from './user-access';
import { userErrors } from './user.errors';

/**
 * `POST /api/users` (an administrator adds a user): create the account, then, when the
 * body names a workspace (one the caller administers), ask the workspace service to add
 * the user there with the role. If that second step fails the user exists anyway (201
 * without the role): the front-end assigns the workspace itself afterwards and says
 * 'Created User but Failed to Assign Workspace' when that fails too.
 */
export async function createUser(
  deps: AuthDeps,
  ctx: TrustedContext,
  body: CreateUserBody,
): Promise<{ user: User; events: Envelope[] }> {
  adminScope(ctx);
  const workspaceId = body.workspaceId ?? null;
  if (workspaceId !== null && roleIn(ctx, workspaceId) !== 'admin') throw userErrors.forbidden();
  const { user, events } = await createAccount(deps, {
    username: body.username,
    email: body.email,
    password: body.password,
    isSuperAdmin: false,
  });
  if (workspaceId === null) return { user: presentUser(user, {}), events };

  const assigned = await assignWorkspace(deps, workspaceId, user._id, body.role);
  return { user: presentUser(user, assigned.roles), events: [...events, ...assigned.events] };
}

async function assignWorkspace(
  deps: AuthDeps,
  workspaceId: number,
  userId: string,
  role: CreateUserBody['role'],
): Promise<{ roles: WorkspaceRoles; events: Envelope[] }> {
  try {
    const reply = await deps.workspace.addMember({ workspaceId, userId, role });
    const events = reply.events as unknown as Envelope[];
    // The read model learns it now rather than when the event arrives (applied once either way).
    for (const raw of events) {
      const change = eventSchema('membership.changed').safeParse(raw);
      if (change.success) await applyMembershipChange(deps, change.data);
    }
    return { roles: { [String(workspaceId)]: reply.membership.role }, events };
  } catch (err) {
    deps.logger.warn(
      { err, workspaceId, userId },
      'user created, but adding it to the workspace failed',
    );
    return { roles: {}, events: [] };
  }
}
