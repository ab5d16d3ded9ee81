import { randomUUID } from 'node:crypto';
import { EVENTS } from '@aict/contracts';
import { eventsExchange, type Subscription } from '@aict/service-kit';
import type { LiveGenerations } from '../domain/live-generations';
import type { DomainDeps } from '../domain/domain-deps';

type Deps = Pick<DomainDeps, 'bus' | 'logger'> & { liveGenerations: LiveGenerations };

/**
 * A change of a user's rights stops their generations running in this instance (a private
 * queue per instance: every instance must hear it; stopping twice changes nothing):
 * `user.deleted`, `user.sessions-revoked`, `user.updated` (no longer a super administrator)
 * from the auth service; `membership.changed` (removed or lowered) and `workspace.deleted`
 * from the workspace service.
 */
export async function subscribeRightsRevoked(d: Deps): Promise<Subscription[]> {
  const live = d.liveGenerations;
  const log = (stopped: number, event: string) => {
    if (stopped > 0)
      d.logger.info({ stopped, event }, 'running generations stopped: rights changed');
  };
  const auth = await d.bus.subscribe({
    queue: `generation.rights-revoked.auth.${randomUUID()}`,
    exclusive: true,
    exchange: eventsExchange('auth'),
    bindings: ['user.deleted', 'user.sessions-revoked', 'user.updated'],
    schemas: {
      'user.deleted': EVENTS['user.deleted'],
      'user.sessions-revoked': EVENTS['user.sessions-revoked'],
      'user.updated': EVENTS['user.updated'],
    },
    handler: async (event) => {
      if (event.type === 'user.deleted') log(live.userDeleted(event.data.userId), event.type);
      else if (event.type === 'user.sessions-revoked')
        log(live.sessionsRevoked(event.data.userId), event.type);
      else if (event.type === 'user.updated' && !event.data.isSuperAdmin)
        log(live.superAdminRemoved(event.data.userId), event.type);
    },
  });
  const workspace = await d.bus.subscribe({
    queue: `generation.rights-revoked.workspace.${randomUUID()}`,
    exclusive: true,
    exchange: eventsExchange('workspace'),
    bindings: ['membership.changed', 'workspace.deleted'],
    schemas: {
      'membership.changed': EVENTS['membership.changed'],
      'workspace.deleted': EVENTS['workspace.deleted'],
    },
    handler: async (event) => {
      if (event.type === 'membership.changed') {
        const { userId, workspaceId, role } = event.data;
        log(live.membershipChanged(userId, workspaceId, role), event.type);
      } else if (event.type === 'workspace.deleted') {
        log(live.workspaceDeleted(event.data.workspaceId), event.type);
      }
    },
  });
  return [auth, workspace];
}
