import type { ReferenceImageRecord } from '../data/prompt-images.model';
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
