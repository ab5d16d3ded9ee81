import type { Connection } from 'mongoose';
import { outboxPlugin, type OutboxModel } from '@aict/service-kit';
import { chainSchema, createChain } from '@aict/service-kit';

/** A reference image of a prompt; the bytes live in MinIO under `key`. */
export interface ReferenceImageRecord {
  /** Stable, random, never reused: the last segment of the image's URL. */
  id: string;
  /** Chosen by the server: `workspaces/<workspaceId>/prompts/<promptId>/<id>.<ext>`. */
  key: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
}

/**
 * A prompt's reference images: the chain `images:<promptId>` (service-kit data/chain.ts), so that
 * concurrent uploads and removals never swallow one another (FerretDB v1 updates have no
 * isolation) and the limit of MAX_REFERENCE_IMAGES holds exactly. A version may carry the
 * prompt.updated event of its change (the outbox, in the same insert).
 */
export interface ReferenceImages {
  images: ReferenceImageRecord[];
}

export const imagesChain = (promptId: string) => `images:${promptId}`;

/** Versions kept behind the latest list. */
const KEEP = 5;

export function promptImagesModel(conn: Connection): OutboxModel {
  const existing = conn.models.PromptImages as OutboxModel | undefined;
  if (existing) return existing;
  const schema = chainSchema();
  schema.plugin(outboxPlugin);
  return conn.model('PromptImages', schema, 'prompt_images');
}

export function createImagesChain(model: OutboxModel) {
  return createChain<ReferenceImages>(model.collection as never, { keep: KEEP });
}

export type ImagesChain = ReturnType<typeof createImagesChain>;
