import type { AuditAct, AuditSummary, TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { UserRecord } from '../data/user.model';
import type { AuthDeps } from './auth-deps';

/** What an act says about itself; the actor and client come from the request's context. */
export type ActDescription = Pick<AuditAct, 'action' | 'targetType' | 'targetId'> &
  Partial<Pick<AuditAct, 'workspaceId' | 'before' | 'after' | 'actorName'>>;

/**
 * The `audit.recorded` event of an act, to write in the same outbox as the act's own
 * change (the consumer appends it to the audit log). Summaries never hold a secret.
 */
export function auditEnvelope(
  deps: Pick<AuthDeps, 'events'>,
  ctx: Pick<TrustedContext, 'uid' | 'ip' | 'ws'> | null,
  act: ActDescription,
): Envelope {
  return deps.events.envelope('audit.recorded', {
    actorId: ctx?.uid ?? null,
    ...(act.actorName ? { actorName: act.actorName } : {}),
    workspaceId: act.workspaceId ?? ctx?.ws ?? null,
    action: act.action,
    targetType: act.targetType,
    targetId: act.targetId,
    before: act.before ?? null,
    after: act.after ?? null,
    ...(ctx?.ip ? { clientAddress: ctx.ip } : {}),
  });
}

/** A user as the log shows it: never the password hash or token version. */
export function userSummary(
  user: Pick<UserRecord, 'username' | 'email' | 'isSuperAdmin'>,
): AuditSummary {
  return { username: user.username, email: user.email, isSuperAdmin: user.isSuperAdmin };
}

/** The fields that changed, before and after. */
export function changedFields(
  before: AuditSummary,
  after: AuditSummary,
): { before: AuditSummary; after: AuditSummary } {
  const keys = Object.keys(after).filter((key) => before[key] !== after[key]);
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])),
  };
}

/**
 * Records an act that changes nothing stored (a sign-in, a failed one): published at once,
 * with the broker's confirm; a broker that is down costs the entry, not the sign-in (logged).
 */
export async function recordAct(
  deps: Pick<AuthDeps, 'events' | 'logger'>,
  ctx: Pick<TrustedContext, 'uid' | 'ip' | 'ws'> | null,
  act: ActDescription,
): Promise<void> {
  const envelope = auditEnvelope(deps, ctx, act);
  await deps.events.publishNow(envelope).catch((err: unknown) => {
    deps.logger.warn({ err, action: act.action }, 'could not record an audit entry');
  });
}
