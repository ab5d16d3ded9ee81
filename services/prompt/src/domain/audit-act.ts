import { createHash } from 'node:crypto';
import type { AuditAct, AuditSummary, TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import type { DomainDeps } from './domain-deps';

/** What an act says about itself; the actor and client come from the request's context. */
export type ActDescription = Pick<AuditAct, 'action' | 'targetType' | 'targetId'> &
  Partial<Pick<AuditAct, 'workspaceId' | 'before' | 'after'>>;

/**
 * The `audit.recorded` event of an administrative act (issue 17), written in the same outbox
 * as the act's own change; the auth service appends it to the audit log.
 */
export function auditEnvelope(
  d: Pick<DomainDeps, 'bus'>,
  ctx: Pick<TrustedContext, 'uid' | 'ip'>,
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

/** A prompt as the log shows it: never its template (it may be long) or its images. */
export function promptAuditSummary(
  prompt: Pick<PromptRecord, 'name' | 'category' | 'contentType' | 'model' | 'isPublic'>,
): AuditSummary {
  return {
    name: prompt.name.slice(0, 500),
    category: prompt.category,
    contentType: prompt.contentType,
    model: prompt.model,
    isPublic: prompt.isPublic,
  };
}

/**
 * What the log shows of a prompt's edit: its fields, its description, and a fingerprint of
 * its template (that the text changed, not the text).
 */
export function auditedPromptFields(prompt: PromptRecord): AuditSummary {
  return {
    ...promptAuditSummary(prompt),
    description: prompt.description?.slice(0, 500) ?? null,
    template: createHash('sha256').update(prompt.template).digest('hex').slice(0, 8),
  };
}

/** The fields that changed, before and after (both null when nothing the log shows changed). */
export function changedFields(
  before: AuditSummary,
  after: AuditSummary,
): { before: AuditSummary | null; after: AuditSummary | null } {
  const keys = Object.keys(after).filter((key) => before[key] !== after[key]);
  if (keys.length === 0) return { before: null, after: null };
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])),
  };
}
