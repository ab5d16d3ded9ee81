import type { EventOf } from '@aict/contracts';
import type { AuthDeps } from './auth-deps';
import { documentKey } from './keyed-lock';

type ReadModelDeps = Pick<AuthDeps, 'memberships' | 'locks'>;

/** The read-model documents of one user are written one change at a time (keyed-lock.ts). */
const forUser = <T>(deps: ReadModelDeps, userId: string, task: () => Promise<T>) =>
  deps.locks.run(documentKey('user_roles', userId), task);

/**
 * `membership.changed` → the read model (role null: the user left). A change for a
 * workspace already deleted is recorded as a departure, so a late event cannot bring a
 * deleted workspace's role back.
 */
export async function applyMembershipChange(
  deps: ReadModelDeps,
  event: EventOf<'membership.changed'>,
): Promise<void> {
  const { workspaceId, userId, role } = event.data;
  const at = new Date(event.occurredAt);
  await forUser(deps, userId, async () => {
    const deleted = await deps.memberships.isWorkspaceDeleted(workspaceId);
    await deps.memberships.apply({ workspaceId, userId, role: deleted ? null : role, at });
    // The workspace may have been deleted while this was written (its event is handled on
    // another queue): take the role back, at the same instant so that this write wins.
    if (role && !deleted && (await deps.memberships.isWorkspaceDeleted(workspaceId)))
      await deps.memberships.apply({ workspaceId, userId, role: null, at });
  });
}

/** `workspace.deleted` → every membership of the workspace ends (and later events for it are ignored). */
export async function applyWorkspaceDeleted(
  deps: ReadModelDeps,
  event: EventOf<'workspace.deleted'>,
): Promise<void> {
  const { workspaceId } = event.data;
  const at = new Date(event.occurredAt);
  await deps.memberships.markWorkspaceDeleted(workspaceId, at);
  for (const membership of await deps.memberships.membershipsOf(workspaceId)) {
    const end = new Date(Math.max(at.getTime(), membership.changedAt.getTime()));
    await forUser(deps, membership.userId, () =>
      deps.memberships.apply({ workspaceId, userId: membership.userId, role: null, at: end }),
    );
  }
}
