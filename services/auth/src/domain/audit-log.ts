import { createHash } from 'node:crypto';
import {
  AUDIT_EXPORT_MAX,
  type AuditAct,
  type AuditSummary,
  type EventOf,
  type TrustedContext,
} from '@aict/contracts';
import { auditEntryId, type AuditEntryRecord } from '../data/audit.model';
import type { AuditFilter, AuditRepository } from '../data/audit.repository';
import { userErrors } from './user.errors';

/** The `prevHash` of the very first entry. */
export const GENESIS_HASH = '0'.repeat(64);
/** A claim on an event older than this, still without its entry, was abandoned (a crash). */
const CLAIM_STALE_MS = 30_000;
const VERIFY_BATCH = 500;

const sortedSummary = (summary: AuditSummary | null) =>
  summary === null
    ? null
    : Object.fromEntries(
        Object.keys(summary)
          .sort()
          .map((key) => [key, summary[key]]),
      );

/** The SHA-256 of everything an entry says, and the hash of the one before it. */
export function entryHash(entry: Omit<AuditEntryRecord, '_id' | 'hash'>): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        entry.seq,
        entry.eventId,
        entry.at.toISOString(),
        entry.actorId,
        entry.actorName,
        entry.workspaceId,
        entry.action,
        entry.targetType,
        entry.targetId,
        sortedSummary(entry.before),
        sortedSummary(entry.after),
        entry.clientAddress,
        entry.requestId,
        entry.prevHash,
      ]),
    )
    .digest('hex');
}

/** The newest entry (by the head hint, then by `_id` forward), or where the chain starts. */
async function tipOf(audit: AuditRepository): Promise<{ seq: number; hash: string }> {
  const [hint, anchor] = await Promise.all([audit.headHint(), audit.anchor()]);
  const start = Math.max(hint, anchor?.seq ?? 0);
  let tip = start > 0 ? await audit.findEntry(start) : null;
  if (start > 0 && !tip && start !== anchor?.seq) tip = await audit.newestByQuery();
  if (!tip) return anchor ?? { seq: 0, hash: GENESIS_HASH };
  for (
    let next = await audit.findEntry(tip.seq + 1);
    next;
    next = await audit.findEntry(next.seq + 1)
  ) {
    tip = next;
  }
  return { seq: tip.seq, hash: tip.hash };
}

/**
 * Appends the act an `audit.recorded` event announces, once per event id: claim the event,
 * then insert the entry after the newest one (compare-and-set on `_id`; lost races try
 * again), then note where it went. A redelivered event appends nothing; one whose first
 * append was interrupted by a crash is appended by the redelivery (after the claim went
 * stale), unless its entry is found.
 */
export async function appendAuditEvent(
  audit: AuditRepository,
  event: EventOf<'audit.recorded'>,
): Promise<number> {
  if (!(await audit.claimEvent(event.id))) {
    const marker = await audit.eventMarker(event.id);
    if (marker?.seq !== undefined) return marker.seq;
    const written = await audit.findByEventId(event.id);
    if (written) {
      await audit.markEvent(event.id, written.seq);
      return written.seq;
    }
    if (marker?.at && Date.now() - new Date(marker.at).getTime() < CLAIM_STALE_MS) {
      // Another delivery is appending it right now: the retry finds its entry.
      throw new Error(`audit event ${event.id} is being appended`);
    }
    await audit.touchEvent(event.id);
  }
  const act: AuditAct = event.data;
  for (;;) {
    const tip = await tipOf(audit);
    const body: Omit<AuditEntryRecord, '_id' | 'hash'> = {
      seq: tip.seq + 1,
      eventId: event.id,
      at: new Date(event.occurredAt),
      actorId: act.actorId,
      actorName: act.actorName ?? null,
      workspaceId: act.workspaceId,
      action: act.action,
      targetType: act.targetType,
      targetId: act.targetId,
      before: act.before,
      after: act.after,
      clientAddress: act.clientAddress ?? null,
      requestId: event.correlationId,
      prevHash: tip.hash,
    };
    const entry: AuditEntryRecord = { _id: auditEntryId(body.seq), ...body, hash: entryHash(body) };
    if (await audit.insertEntry(entry)) {
      await audit.markEvent(event.id, entry.seq);
      await audit.raiseHead(entry.seq).catch(() => undefined); // a hint
      return entry.seq;
    }
  }
}

export interface AuditVerification {
  ok: boolean;
  checked: number;
  anchor: number;
  broken: { seq: number; reason: string } | null;
}

/**
 * Walks the kept entries from the retention anchor (or the first) to the newest and reports
 * the first broken link: a changed entry (its hash), a removed or inserted one (the next
 * entry's `prevHash`, a gap in the positions, or a head hint past the newest entry).
 */
export async function verifyAuditLog(audit: AuditRepository): Promise<AuditVerification> {
  const anchor = (await audit.anchor()) ?? { seq: 0, hash: GENESIS_HASH };
  const result = (broken: AuditVerification['broken'], checked: number): AuditVerification => ({
    ok: broken === null,
    checked,
    anchor: anchor.seq,
    broken,
  });
  let prev = anchor;
  let checked = 0;
  for (;;) {
    const batch = await audit.batchAfter(prev.seq, VERIFY_BATCH);
    for (const entry of batch) {
      if (entry.seq !== prev.seq + 1) {
        return result({ seq: prev.seq + 1, reason: 'entry missing' }, checked);
      }
      if (entry._id !== auditEntryId(entry.seq)) {
        return result({ seq: entry.seq, reason: 'entry moved' }, checked);
      }
      if (entry.prevHash !== prev.hash) {
        return result({ seq: entry.seq, reason: 'previous hash does not match' }, checked);
      }
      const { _id, hash, ...body } = entry;
      if (entryHash({ ...body, at: new Date(body.at) }) !== hash) {
        return result({ seq: entry.seq, reason: 'entry changed' }, checked);
      }
      checked += 1;
      prev = { seq: entry.seq, hash };
    }
    if (batch.length < VERIFY_BATCH) break;
  }
  const head = await audit.headHint();
  if (head > prev.seq) return result({ seq: prev.seq + 1, reason: 'entry missing' }, checked);
  return result(null, checked);
}

/**
 * Retention: entries written more than `days` ago go; the last one removed becomes the
 * anchor (its position and hash) the kept entries are verified from. Written before the
 * removal, so a crash between the two leaves entries the anchor already covers (verify reads
 * from the anchor on).
 */
export async function applyAuditRetention(
  audit: AuditRepository,
  days: number,
  now = new Date(),
): Promise<number> {
  if (days <= 0) return 0;
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const last = await audit.newestBefore(cutoff);
  if (!last) return 0;
  const anchor = await audit.anchor();
  if (anchor && anchor.seq >= last.seq) return 0;
  await audit.setAnchor(last.seq, last.hash);
  return audit.deleteUpTo(last.seq);
}

export interface AuditListQuery {
  workspaceId?: number;
  scope?: 'workspace' | 'platform';
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  before?: number;
  limit: number;
}

/** A date-only bound covers its whole day (UTC). */
function bound(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  }
  return new Date(value);
}

/**
 * Who reads what: the super admin every entry (scope `platform`, or no workspace named or in
 * view) or one workspace's; a workspace admin only the entries of a workspace they
 * administer (never the acts tied to no workspace, such as sign-ins).
 */
function scopeOf(ctx: TrustedContext, query: AuditListQuery): AuditFilter {
  if (!ctx.uid) throw userErrors.unauthenticated();
  if (ctx.tok) throw userErrors.forbidden();
  if (query.scope === 'platform' && !ctx.sa) throw userErrors.forbidden();
  const workspaceId =
    query.scope === 'platform' ? undefined : (query.workspaceId ?? ctx.ws ?? undefined);
  if (!ctx.sa && (workspaceId === undefined || ctx.roles[String(workspaceId)] !== 'admin')) {
    throw userErrors.forbidden();
  }
  return {
    workspaceId,
    actor: query.actor || undefined,
    action: query.action || undefined,
    target: query.target || undefined,
    from: bound(query.from, false),
    to: bound(query.to, true),
  };
}

export async function listAuditEntries(
  audit: AuditRepository,
  ctx: TrustedContext,
  query: AuditListQuery,
): Promise<{ entries: AuditEntryRecord[]; next: number | null }> {
  const filter = { ...scopeOf(ctx, query), beforeSeq: query.before };
  const found = await audit.page(filter, query.limit + 1);
  const entries = found.slice(0, query.limit);
  return { entries, next: found.length > query.limit ? (entries.at(-1)?.seq ?? null) : null };
}

export async function exportAuditEntries(
  audit: AuditRepository,
  ctx: TrustedContext,
  query: AuditListQuery,
): Promise<AuditEntryRecord[]> {
  return audit.page(scopeOf(ctx, query), AUDIT_EXPORT_MAX);
}
