import type { QueryFilter as FilterQuery } from 'mongoose';
import { auditEntryId, type AuditEntryRecord, type AuditModels } from './audit.model';
import { isDuplicateKey } from './mongo-errors';

const HEAD = 'head';
const ANCHOR = 'anchor';
const eventKey = (eventId: string) => `event:${eventId}`;

/** What a list or export may filter on; text filters match part of the value, any case. */
export interface AuditFilter {
  workspaceId?: number;
  actor?: string;
  action?: string;
  target?: string;
  from?: Date;
  to?: Date;
  beforeSeq?: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const contains = (text: string) => ({ $regex: escape(text), $options: 'i' });

function toQuery(filter: AuditFilter): FilterQuery<AuditEntryRecord> {
  const and: Array<FilterQuery<AuditEntryRecord>> = [];
  if (filter.workspaceId !== undefined) and.push({ workspaceId: filter.workspaceId });
  if (filter.actor) {
    and.push({ $or: [{ actorId: filter.actor }, { actorName: contains(filter.actor) }] });
  }
  if (filter.action) and.push({ action: contains(filter.action) });
  if (filter.target) {
    and.push({ $or: [{ targetId: contains(filter.target) }, { targetType: filter.target }] });
  }
  if (filter.from) and.push({ at: { $gte: filter.from } });
  if (filter.to) and.push({ at: { $lte: filter.to } });
  if (filter.beforeSeq !== undefined) and.push({ seq: { $lt: filter.beforeSeq } });
  return and.length > 0 ? { $and: and } : {};
}

/**
 * The audit log's storage: entries by `_id` (`audit:global@<seq>`), inserted once and never
 * updated; the bookkeeping (head hint, retention anchor, event markers) in `audit_meta`.
 */
export function auditRepository({ entries, meta }: AuditModels) {
  return {
    findEntry(seq: number): Promise<AuditEntryRecord | null> {
      return entries.findById(auditEntryId(seq)).lean<AuditEntryRecord>().exec();
    },

    /** False when the place was taken (someone else appended `seq` first). */
    async insertEntry(entry: AuditEntryRecord): Promise<boolean> {
      try {
        await entries.collection.insertOne(entry as never);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    /** The newest entry by a query (a scan on FerretDB: only when the head hint fails). */
    async newestByQuery(): Promise<AuditEntryRecord | null> {
      const [found] = await entries.find({}).sort({ seq: -1 }).limit(1).lean<AuditEntryRecord[]>();
      return found ?? null;
    },

    async headHint(): Promise<number> {
      const head = await meta.findById(HEAD).lean().exec();
      return head?.seq ?? 0;
    },

    async raiseHead(seq: number): Promise<void> {
      await meta.updateOne({ _id: HEAD }, { $max: { seq } }, { upsert: true });
    },

    async anchor(): Promise<{ seq: number; hash: string } | null> {
      const anchor = await meta.findById(ANCHOR).lean().exec();
      return anchor?.seq !== undefined && anchor.hash
        ? { seq: anchor.seq, hash: anchor.hash }
        : null;
    },

    async setAnchor(seq: number, hash: string): Promise<void> {
      await meta.updateOne(
        { _id: ANCHOR },
        { $set: { seq, hash, at: new Date() } },
        { upsert: true },
      );
    },

    /** True for the first caller with this event id. */
    async claimEvent(eventId: string): Promise<boolean> {
      try {
        await meta.collection.insertOne({ _id: eventKey(eventId), at: new Date() } as never);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    eventMarker(eventId: string) {
      return meta.findById(eventKey(eventId)).lean().exec();
    },

    async markEvent(eventId: string, seq: number): Promise<void> {
      await meta.updateOne({ _id: eventKey(eventId) }, { $set: { seq } });
    },

    /** Restarts the claim's clock (a writer taking over an abandoned claim). */
    async touchEvent(eventId: string): Promise<void> {
      await meta.updateOne({ _id: eventKey(eventId) }, { $set: { at: new Date() } });
    },

    /** An event's entry by a query (a scan on FerretDB: only after an interrupted append). */
    findByEventId(eventId: string): Promise<AuditEntryRecord | null> {
      return entries.findOne({ eventId }).lean<AuditEntryRecord>().exec();
    },

    /** Newest first. */
    page(filter: AuditFilter, limit: number): Promise<AuditEntryRecord[]> {
      return entries
        .find(toQuery(filter))
        .sort({ seq: -1 })
        .limit(limit)
        .lean<AuditEntryRecord[]>();
    },

    /** Oldest first, after `seq`. */
    batchAfter(seq: number, limit: number): Promise<AuditEntryRecord[]> {
      return entries
        .find({ seq: { $gt: seq } })
        .sort({ seq: 1 })
        .limit(limit)
        .lean<AuditEntryRecord[]>();
    },

    /** The newest entry written before `date`. */
    async newestBefore(date: Date): Promise<AuditEntryRecord | null> {
      const [found] = await entries
        .find({ at: { $lt: date } })
        .sort({ seq: -1 })
        .limit(1)
        .lean<AuditEntryRecord[]>();
      return found ?? null;
    },

    async deleteUpTo(seq: number): Promise<number> {
      const { deletedCount } = await entries.deleteMany({ seq: { $lte: seq } });
      return deletedCount;
    },
  };
}

export type AuditRepository = ReturnType<typeof auditRepository>;
