import type { DomainDeps } from './domain-deps';
import { withMembershipLock } from './locks';

/**
 * A user was deleted (`user.deleted`): every membership of theirs goes, each announced by a
 * `membership.changed` with role null, and their index with them. The user is remembered as
 * deleted so that nobody adds them back. Idempotent: a second run finds nothing to remove.
 */
export async function removeUserMemberships(d: DomainDeps, userId: string): Promise<void> {
  await d.memberships.markUserDeleted(userId);
  for (const { _id, workspaceId, role } of await d.memberships.listByUser(userId)) {
    await withMembershipLock(d, workspaceId, userId, () =>
      d.memberships.markDeleted(
        _id,
        role ? [d.bus.envelope('membership.changed', { workspaceId, userId, role: null })] : [],
      ),
    );
    d.outbox.flushLater(d.models.Membership, _id);
  }
  await d.memberships.deleteIndex(userId);
}
