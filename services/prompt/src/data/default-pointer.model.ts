import type { Connection } from 'mongoose';
import { outboxPlugin, type OutboxModel } from '@aict/service-kit';
import { chainSchema, createChain } from '@aict/service-kit';

/**
 * The workspace's default prompt: the chain `default:<workspaceId>` (its head document has
 * that `_id`), whose latest version is the single source of truth; a prompt's `isDefault` is
 * derived from it when presented. A change is the insert of the next version, each with its
 * prompt.default-changed event (the outbox, in the same insert), so exactly one prompt (or
 * none) is the default whatever the concurrency, and `n` is the event's `sequence`.
 */
export interface DefaultPointer {
  promptId: string | null;
}

export const defaultChain = (workspaceId: number) => `default:${workspaceId}`;

/** Versions kept behind the latest pointer. */
const KEEP = 5;

export function defaultPointerModel(conn: Connection): OutboxModel {
  const existing = conn.models.DefaultPrompt as OutboxModel | undefined;
  if (existing) return existing;
  const schema = chainSchema();
  schema.plugin(outboxPlugin);
  return conn.model('DefaultPrompt', schema, 'prompt_defaults');
}

export function createDefaultChain(model: OutboxModel) {
  return createChain<DefaultPointer>(model.collection as never, { keep: KEEP });
}

export type DefaultChain = ReturnType<typeof createDefaultChain>;
