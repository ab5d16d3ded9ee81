import type { AuditAct, TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { DomainDeps } from './domain-deps';

/** What an act says about itself; the actor and client come from the request's context. */
export type ActDescription = Pick<AuditAct, 'action' | 'targetType' | 'targetId'> &
  Partial<Pick<AuditAct, 'workspaceId' | 'before' | 'after'>>;

/**
 * The `audit.recorded` event of an administrative act, written in the same outbox as the
 * act's own change; the auth service appends it to the audit log. Never a secret in it.
 */
export function auditEnvelope(
  d: Pick<DomainDeps, 'bus'>,
  ctx: TrustedContext,
  act: ActDescription,
): Envelope {
  return d.bus.envelope('audit.recorded', {
    actorId: ctx.uid,
    workspaceId: act.workspaceId ?? null,
    action: act.action,
    targetType: act.targetType,
    targetId: act.targetId,
    before: act.before ?? null,
    after: act.after ?? null,
    ...(ctx.ip ? { clientAddress: ctx.ip } : {}),
  });
}
