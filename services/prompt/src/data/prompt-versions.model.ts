import type { Connection } from 'mongoose';
import type { Category, ContentType } from '@aict/contracts';
import { chainSchema, createChain, type OutboxModel } from '@aict/service-kit';

/**
 * A prompt's history (issue 18): the chain `versions:<promptId>` (service-kit data/chain.ts)
 * in `prompt_versions`. Version `n` holds the editable fields the prompt had after the write
 * that gave it `rev: n` (prompt.model.ts): the prompt's compare and set on `rev` makes that
 * write unique, and the version is then inserted under its own `_id` (never updated), so
 * history is append-only. Writes that change no editable field (unpublishing, deleting) record
 * none: numbers may skip. A version falls to retention (a tombstone, not listed) once KEEP
 * newer ones exist.
 */
export interface PromptVersionValue {
  name: string;
  description?: string;
  template: string;
  category: Category;
  contentType: ContentType;
  model: string;
  /** The user whose write made the version (null: not recorded). */
  editedBy: string | null;
}

export const versionsChain = (promptId: string) => `versions:${promptId}`;

/** Versions kept behind the latest. */
export const KEEP_VERSIONS = 20;

/** A model only for the MongoDB index of the chain's collection (no outbox here). */
export function promptVersionsModel(conn: Connection): OutboxModel {
  return (
    (conn.models.PromptVersion as OutboxModel | undefined) ??
    conn.model('PromptVersion', chainSchema(), 'prompt_versions')
  );
}

export function createVersionsChain(model: OutboxModel) {
  return createChain<PromptVersionValue>(model.collection as never, { keep: KEEP_VERSIONS });
}

export type VersionsChain = ReturnType<typeof createVersionsChain>;
