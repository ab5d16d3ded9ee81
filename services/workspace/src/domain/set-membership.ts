import type { Role, TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { auditEnvelope } from './audit-act';
import type { DomainDeps } from './domain-deps';
import { withMembershipLock } from './locks';

export interface MembershipChange {
  /** The role before (null: not a member). */
  before: Role | null;
  role: Role | null;
  /** Identity events published (empty when nothing changed). */
  events: Envelope[];
}

/**
 * Sets a user's role in a workspace (null: removes them). The membership and its
 * `membership.changed` event are one document write; the per-user index follows (and is
 * repaired from the event should this process stop in between). An administrator's change
 * (`actor`) writes its audit event in the same write.
 */
export async function setMembership(
  d: DomainDeps,
  workspaceId: number,
  userId: string,
  role: Role | null,
  actor?: TrustedContext,
): Promise<MembershipChange> {
  const change = await withMembershipLock(d, workspaceId, userId, async () => {
    const current = await d.memberships.get(workspaceId, userId);
    const before = current?.role ?? null;
    if (before === role) return { before, role, events: [] };

    const event = d.bus.envelope('membership.changed', { workspaceId, userId, role });
    const audit = actor
      ? [
          auditEnvelope(d, actor, {
            action: 'membership.changed',
            workspaceId,
            targetType: 'user',
            targetId: userId,
            before: { role: before },
            after: { role },
          }),
        ]
      : [];
    const written = await d.memberships.write(workspaceId, userId, role, [event, ...audit]);
    await d.memberships.applyToIndex(userId, workspaceId, { role: written.role, rev: written.rev });
    d.outbox.flushLater(d.models.Membership, written._id);
    return { before, role, events: [event] };
  });

  // The user (or the workspace) was deleted while this ran: undo, and announce it.
  if (change.events.length > 0 && role !== null) {
    const [userGone, workspace] = await Promise.all([
      d.memberships.isUserDeleted(userId),
      d.workspaces.findById(workspaceId),
    ]);
    if (userGone || !workspace) {
      const undo = await setMembership(d, workspaceId, userId, null);
      return { before: change.before, role: null, events: [...change.events, ...undo.events] };
    }
  }
  return change;
}
