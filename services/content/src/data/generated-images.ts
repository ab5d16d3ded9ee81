import type { Readable } from 'node:stream';
import { generatedImageKey } from '@aict/contracts';
import type { ObjectStore } from '@aict/service-kit';

// The generated images, read where the generation service keeps them (its bucket, the key
// of contracts' generatedImageKey): the workspace export streams them into its archive.

const NOT_FOUND_CODES = new Set(['NotFound', 'NoSuchKey', 'NoSuchObject']);
const isNotFound = (err: unknown) =>
  NOT_FOUND_CODES.has(String((err as { code?: unknown } | null)?.code));

export interface GeneratedImage {
  stream: Readable;
  contentType: string;
}

export function createGeneratedImages(store: ObjectStore, bucket: string) {
  return {
    /** The image's bytes and type, or null when it is gone (deleted, never stored). */
    async open(workspaceId: number | null, contentId: string): Promise<GeneratedImage | null> {
      const key = generatedImageKey(workspaceId, contentId);
      try {
        const stat = await store.client.statObject(bucket, key);
        const type = Object.entries(stat.metaData ?? {}).find(
          ([name]) => name.toLowerCase() === 'content-type',
        )?.[1];
        const stream = await store.client.getObject(bucket, key);
        return {
          stream,
          contentType: typeof type === 'string' ? type : 'application/octet-stream',
        };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
  };
}

export type GeneratedImages = ReturnType<typeof createGeneratedImages>;
