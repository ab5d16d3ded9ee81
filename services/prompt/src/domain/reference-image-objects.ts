import { imagesChain, type ReferenceImageRecord } from '../data/prompt-images.model';
import type { DomainDeps } from './domain-deps';

/** Where a prompt's reference images live in MinIO (the server chooses every key). */
export const workspaceObjectsPrefix = (workspaceId: number) => `workspaces/${workspaceId}/`;
export const promptObjectsPrefix = (workspaceId: number, promptId: string) =>
  `${workspaceObjectsPrefix(workspaceId)}prompts/${promptId}/`;

/**
 * Removes the objects of images the prompt no longer holds (after the prompt was saved
 * without them). A failure is logged: the prompt is right, an object is left behind.
 */
export async function removeImageObjects(
  d: DomainDeps,
  images: readonly ReferenceImageRecord[],
): Promise<void> {
  await Promise.all(
    images.map((image) =>
      d.storage
        .remove(image.key)
        .catch((err: unknown) =>
          d.logger.warn({ err, key: image.key }, 'reference image object not removed'),
        ),
    ),
  );
}

/**
 * For the orphan sweep: true when the prompt's latest list of reference images holds the
 * object `key` (`workspaces/<ws>/prompts/<promptId>/<imageId>.<ext>`); read by `_id` through
 * the list's chain. Keys of another shape are kept.
 */
export async function isReferenceImageReferenced(d: DomainDeps, key: string): Promise<boolean> {
  const match = /^workspaces\/\d+\/prompts\/([^/]+)\/[^/]+$/.exec(key);
  if (!match) return true;
  const latest = await d.images.latest(imagesChain(match[1]!));
  return (latest?.value.images ?? []).some((image) => image.key === key);
}
