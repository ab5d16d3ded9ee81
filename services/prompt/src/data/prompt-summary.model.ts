import type { Connection } from 'mongoose';
import type { OutboxModel, StoredList } from '@aict/service-kit';
import type { Category, ContentType } from '@aict/contracts';
import { chainSchema, createChain, readList, storeList } from '@aict/service-kit';
import type { PromptRecord } from './prompt.model';

/** One prompt in a summary: what the list shows (never the template or images). Times in ISO. */
export interface SummaryEntry {
  id: string;
  name: string;
  description?: string;
  category: Category;
  contentType: ContentType;
  model: string;
  isPublic: boolean;
  variables: string[];
  workspaceId: number;
  userId: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A summary of prompts, derived from the prompts and read by `_id` on the hot list route: the
 * chain `ws:<workspaceId>` holds a workspace's prompts, the chain `public` every public one.
 * Bounded by MAX_PROMPTS_PER_WORKSPACE and MAX_PUBLIC_PROMPTS.
 */
export interface SummaryVersion {
  entries: SummaryEntry[];
  /** The workspace is gone: the summary stays empty, late syncs leave it alone. */
  closed?: boolean;
}

export const PUBLIC_SUMMARY = 'public';
export const workspaceSummary = (workspaceId: number) => `ws:${workspaceId}`;

/** Versions kept behind the latest summary. */
const KEEP = 5;

/** A model only for the MongoDB index of the chain's collection (no outbox here). */
export function summaryModel(conn: Connection): OutboxModel {
  return (
    (conn.models.PromptSummary as OutboxModel | undefined) ??
    conn.model('PromptSummary', chainSchema(), 'prompt_summaries')
  );
}

/**
 * A summary version as stored: the entries as the JSON of the list, one string. FerretDB v1
 * decodes a stored document value by value (about 10 values an entry), and every prompt list
 * and stats call reads the workspace's summary and the public one; versions written before
 * hold the list, read alike.
 */
export interface StoredSummaryVersion {
  entries: StoredList<SummaryEntry>;
  closed?: boolean;
}

export const storedSummary = (version: SummaryVersion): StoredSummaryVersion => ({
  ...version,
  entries: storeList(version.entries),
});

export const summaryOf = (stored: StoredSummaryVersion): SummaryVersion => ({
  ...stored,
  entries: readList(stored.entries),
});

/** The summaries' chain, its versions stored with their entries as one string. */
export function createSummaryChain(model: OutboxModel) {
  const chain = createChain<StoredSummaryVersion>(model.collection as never, {
    keep: KEEP,
    dropsBefore: true,
  });
  return {
    async latest(id: string) {
      const link = await chain.latest(id);
      return link && { ...link, value: summaryOf(link.value) };
    },
    append: (id: string, n: number, version: SummaryVersion) =>
      chain.append(id, n, storedSummary(version)),
    dropBefore: chain.dropBefore,
  };
}

export type SummaryChain = ReturnType<typeof createSummaryChain>;

/** What the summary documents hold for a prompt. */
export function toSummaryEntry(record: Omit<PromptRecord, 'template'>): SummaryEntry {
  const entry: SummaryEntry = {
    id: record._id,
    name: record.name,
    category: record.category,
    contentType: record.contentType,
    model: record.model,
    isPublic: record.isPublic,
    variables: record.variables ?? [],
    workspaceId: record.workspaceId,
    userId: record.userId,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
  if (record.description) entry.description = record.description;
  return entry;
}
