import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  GPT_IMAGE_MODEL,
  MAX_REFERENCE_IMAGES,
  ReferenceImageFields,
  type TrustedContext,
} from '@aict/contracts';
import { outboxInsert, type Envelope, type SingleUpload } from '@aict/service-kit';
import { linkId } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import { imagesChain, type ReferenceImageRecord } from '../data/prompt-images.model';
import { checkImage } from '../lib/image';
import { assertCanEdit, isDefaultInView, loadVisiblePrompt } from './access';
import type { DomainDeps } from './domain-deps';
import { promptSnapshot } from './prompt-snapshot';
import {
  busyPrompt,
  imageTooManyPixels,
  notAnImage,
  promptNotFound,
  referenceImageNotFound,
  referenceLimitReached,
  referenceNotAllowed,
} from './prompt.errors';
import { promptObjectsPrefix, removeImageObjects } from './reference-image-objects';
import { imagesOf, viewPrompt, type PromptDetail } from './view-prompt';

const MAX_ATTEMPTS = 20;

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * (attempt + 1), 50)));

/** SPEC §2: the 'Reference Image' card is for image prompts that use gpt-image-1. */
function assertTakesReferenceImages(prompt: PromptRecord): void {
  if (prompt.contentType !== 'image' || prompt.model !== GPT_IMAGE_MODEL)
    throw referenceNotAllowed();
}

/** An image may go at `index` (a replacement), or be appended while there is room. */
function assertRoomForImage(images: readonly ReferenceImageRecord[], index: number | undefined) {
  const replaces = index !== undefined && index < images.length;
  if (!replaces && images.length >= MAX_REFERENCE_IMAGES) throw referenceLimitReached();
}

/**
 * The images after placing `image`: at `index` it replaces the image there; without an
 * index, or past the last image, it is appended. At most MAX_REFERENCE_IMAGES.
 */
function placeImage(
  images: readonly ReferenceImageRecord[],
  image: ReferenceImageRecord,
  index: number | undefined,
): { images: ReferenceImageRecord[]; removed: ReferenceImageRecord[] } {
  assertRoomForImage(images, index);
  if (index !== undefined && index < images.length) {
    const next = [...images];
    const removed = next.splice(index, 1, image);
    return { images: next, removed };
  }
  return { images: [...images, image], removed: [] };
}

export interface ImageChange {
  images: ReferenceImageRecord[];
  removed: ReferenceImageRecord[];
}

/**
 * Writes a prompt's next list of reference images: the next version of its chain (an insert,
 * with `events` in the same write), computed by `change` from the latest list; a change that
 * lost the race is computed again from the new latest. Then the removed images' objects go.
 */
export async function changeImages(
  d: DomainDeps,
  prompt: Pick<PromptRecord, '_id' | 'workspaceId'>,
  change: (images: ReferenceImageRecord[]) => ImageChange | null,
  events: () => Promise<Envelope[]>,
): Promise<ReferenceImageRecord[]> {
  const chain = imagesChain(prompt._id);
  // The workspace id on each version lets a deleted workspace's lists go in one query.
  const owner = { workspaceId: prompt.workspaceId };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const latest = await d.images.latest(chain);
    const current = latest?.value.images ?? [];
    const next = change(current);
    if (!next) return current;
    const n = (latest?.n ?? 0) + 1;
    const pending = await events();
    if (await d.images.append(chain, n, { images: next.images }, outboxInsert(owner, pending))) {
      if (pending.length > 0) d.relay.flushLater(d.models.PromptImages, linkId(chain, n));
      await removeImageObjects(d, next.removed);
      return next.images;
    }
    await pause(attempt);
  }
  throw busyPrompt();
}

/** The prompt.updated event of an image change (the prompt itself is unchanged). */
const updatedEvent = (d: DomainDeps, prompt: PromptRecord) => async () => [
  d.bus.envelope('prompt.updated', promptSnapshot(prompt, await isDefaultInView(d, prompt, null))),
];

/**
 * POST /api/prompts/:id/reference-image (multipart `reference`, optional `index`): those who
 * may edit the prompt add an image, or replace the one at `index`. authorise → read the
 * upload → check the image by its bytes → store it in MinIO under a key of our own → write
 * the next list (the object goes again when that fails).
 */
export async function uploadReferenceImage(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
  readUpload: () => Promise<SingleUpload>,
): Promise<PromptDetail> {
  const prompt = await loadVisiblePrompt(d, ctx, promptId, inView);
  assertCanEdit(ctx, prompt);
  assertTakesReferenceImages(prompt);

  // The upload is read only once the caller is known to be allowed.
  const upload = await readUpload();
  const { index } = ReferenceImageFields.parse(upload.fields);
  assertRoomForImage(await imagesOf(d, promptId), index);
  const checked = await checkImage(upload.bytes, d.config.REFERENCE_IMAGE_MAX_PIXELS);
  if (!checked.ok) {
    throw checked.reason === 'too-many-pixels'
      ? imageTooManyPixels(d.config.REFERENCE_IMAGE_MAX_PIXELS)
      : notAnImage();
  }

  const imageId = `img${randomBytes(8).toString('hex')}`;
  const image: ReferenceImageRecord = {
    id: imageId,
    key: `${promptObjectsPrefix(prompt.workspaceId, promptId)}${imageId}.${checked.image.ext}`,
    contentType: checked.image.mime,
    size: checked.image.bytes.length,
    width: checked.image.width,
    height: checked.image.height,
  };
  await d.storage.put(image.key, checked.image.bytes, { contentType: image.contentType });
  let images: ReferenceImageRecord[];
  try {
    images = await changeImages(
      d,
      prompt,
      (current) => placeImage(current, image, index),
      updatedEvent(d, prompt),
    );
  } catch (err) {
    await removeImageObjects(d, [image]);
    throw err;
  }
  return afterImageChange(d, ctx, promptId, inView, images, [image]);
}

/** DELETE /api/prompts/:id/reference-image/:index: removes one image and its object. */
export async function removeReferenceImage(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  index: number,
  inView: number | null,
): Promise<PromptDetail> {
  const prompt = await loadVisiblePrompt(d, ctx, promptId, inView);
  assertCanEdit(ctx, prompt);
  const images = await changeImages(
    d,
    prompt,
    (current) => {
      const image = current[index];
      if (!image) throw referenceImageNotFound();
      return { images: current.filter((_, i) => i !== index), removed: [image] };
    },
    updatedEvent(d, prompt),
  );
  return afterImageChange(d, ctx, promptId, inView, images, []);
}

/**
 * The answer after an image change. A prompt deleted meanwhile is 404, and the images just
 * added go again (the deletion may have removed its objects before they were written).
 */
async function afterImageChange(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
  images: ReferenceImageRecord[],
  added: ReferenceImageRecord[],
): Promise<PromptDetail> {
  const prompt = await d.prompts.findById(promptId);
  if (!prompt) {
    await removeImageObjects(d, added);
    throw promptNotFound();
  }
  return viewPrompt(d, ctx, prompt, inView, { images });
}

/**
 * GET /api/prompts/:id/reference-images/:n: the image's bytes, for whoever may see the
 * prompt. `n` is the image id of its URL (or, for convenience, its position 0–3).
 */
export async function readReferenceImage(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  n: string,
  inView: number | null,
): Promise<{ image: ReferenceImageRecord; stream: Readable; size: number }> {
  await loadVisiblePrompt(d, ctx, promptId, inView);
  const images = await imagesOf(d, promptId);
  const image = /^\d$/.test(n) ? images[Number(n)] : images.find((candidate) => candidate.id === n);
  if (!image) throw referenceImageNotFound();
  const object = await d.storage.get(image.key);
  if (!object) throw referenceImageNotFound();
  return { image, stream: object.stream, size: object.info.size };
}
