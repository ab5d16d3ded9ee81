import type { Readable } from 'node:stream';
import {
  DEFAULT_CONTENT_LANGUAGE,
  fillTemplate,
  generatedImageKey,
  generatedImageUrl,
  GPT_IMAGE_MODEL,
  isModelFor,
  type GenerateWithImageFields,
  type TrustedContext,
} from '@aict/contracts';
import { AppError } from '@aict/service-kit';
import type { GenerationRecord } from '../data/generation.model';
import { detectImage } from '../lib/file-checks';
import type { ImageResult, ReferenceImage } from '../provider/provider-client';
import type { DomainDeps } from './domain-deps';
import type { PreparedGeneration } from './generate-text';
import { accessRevoked, assertImagePixels, modelNotAllowed, notAnImage } from './generation.errors';
import { newContentId, saveGeneration, titleFrom } from './save-generation';
import { IMAGE_SIZE, imageQualityOf } from './usage';
import {
  loadPrompt,
  loadProviderConfig,
  type GenerationPrompt,
  type KeyedProviderConfig,
} from './upstream';

/** Shared with the content service (its workspace export reads the image from here). */
export const imageKeyOf = generatedImageKey;

interface ImageJob {
  prompt: GenerationPrompt;
  provider: KeyedProviderConfig;
  model: string;
  workspaceId: number | null;
  body: { inputs: Record<string, string>; language?: string };
  /** The reference image uploaded with generate-with-image. */
  reference: ReferenceImage | null;
}

async function readAll(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) throw new AppError('FILE.TOO_LARGE', 413, 'A reference image is too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The prompt's own reference images (gpt-image-1), read from the prompt service's bucket. */
async function promptReferences(
  d: DomainDeps,
  prompt: GenerationPrompt,
): Promise<ReferenceImage[]> {
  const images: ReferenceImage[] = [];
  for (const [index, ref] of prompt.referenceImages.entries()) {
    try {
      const stream = await d.storage.client.getObject(ref.bucket, ref.key);
      const bytes = await readAll(stream, d.config.IMAGE_MAX_BYTES);
      images.push({ bytes, mimeType: ref.mimeType, name: `reference-${index + 1}.png` });
    } catch (err) {
      d.logger.warn(
        { err, promptId: prompt.id, index },
        'a reference image of the prompt is unreadable',
      );
    }
  }
  return images;
}

/**
 * An image from a prompt: dall-e-3 answers a URL that expires (downloaded at once),
 * gpt-image-1 base64. Either way the image is stored in our bucket and served by us.
 * With reference images (uploaded, or the prompt's own for gpt-image-1) it is an edit.
 */
export function prepareImage(
  d: DomainDeps,
  ctx: TrustedContext,
  job: ImageJob,
): PreparedGeneration {
  return {
    meter: {
      model: job.model,
      kind: job.reference ? 'image-edit' : 'image',
      promptId: job.prompt.id,
    },
    async run({ contentId, signal, revoked, onUsage }) {
      const language = job.body.language ?? DEFAULT_CONTENT_LANGUAGE;
      const text =
        fillTemplate(job.prompt.template, job.body.inputs, { language }).trim() || job.prompt.name;
      const references = job.reference
        ? [job.reference]
        : job.model === GPT_IMAGE_MODEL
          ? await promptReferences(d, job.prompt)
          : [];
      // The caller's signal stops the provider call (rights revoked, client gone).
      const call =
        references.length > 0
          ? d.provider.editImage({
              config: job.provider,
              model: job.model,
              prompt: text,
              images: references,
              signal,
            })
          : d.provider.generateImage({
              config: job.provider,
              model: job.model,
              prompt: text,
              signal,
            });
      const result: ImageResult = await call.catch((err: unknown) => {
        throw revoked?.aborted ? accessRevoked() : err;
      });
      const costMicros = onUsage?.({
        kind: references.length > 0 ? 'image-edit' : 'image',
        inputTokens: result.usage.promptTokens,
        outputTokens: result.usage.completionTokens,
        images: { count: 1, size: IMAGE_SIZE, quality: imageQualityOf(job.model) },
      });

      if (revoked?.aborted) throw accessRevoked();
      const id = contentId ?? newContentId();
      const key = imageKeyOf(job.workspaceId, id);
      const mimeType = (await detectImage(result.bytes)) ?? 'image/png';
      await d.storage.put(key, result.bytes, { contentType: mimeType });
      const url = generatedImageUrl(id, job.workspaceId);
      const record: GenerationRecord = {
        _id: id,
        workspaceId: job.workspaceId,
        userId: ctx.uid!,
        title: titleFrom('', job.prompt.name),
        content: url,
        contentType: 'image',
        model: job.model,
        language,
        promptId: job.prompt.id,
        ...(job.prompt.version ? { promptVersion: job.prompt.version } : {}),
        parentId: null,
        threadId: id,
        metadata: {
          inputs: job.body.inputs,
          usage: result.usage,
          ...(references.length > 0 ? { referenceImages: references.length } : {}),
        },
        usage: result.usage,
        ...(costMicros === undefined ? {} : { costMicros }),
        createdAt: new Date(),
        instruction: null,
        imageKey: key,
      };
      try {
        await saveGeneration(d, record);
      } catch (err) {
        await d.storage.remove(key).catch(() => undefined);
        throw err;
      }
      return {
        result: { imageUrl: url, ...(result.b64 ? { b64_json: result.b64 } : {}) },
        content: { id },
      };
    },
  };
}

/** POST /api/generate-with-image: the uploaded image goes to images.edit as the reference. */
export async function prepareGenerateWithImage(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  fields: GenerateWithImageFields,
  file: { bytes: Buffer; filename: string },
): Promise<PreparedGeneration> {
  const mimeType = await detectImage(file.bytes);
  if (!mimeType) throw notAnImage();
  assertImagePixels(file.bytes);
  const prompt = await loadPrompt(d, ctx, fields.promptId, workspaceId);
  if (!isModelFor(prompt.contentType, fields.model)) throw modelNotAllowed();
  if (fields.model !== GPT_IMAGE_MODEL)
    throw modelNotAllowed(`Only ${GPT_IMAGE_MODEL} can work from a reference image`);
  const provider = await loadProviderConfig(d, workspaceId);
  const extension = mimeType.split('/')[1] === 'jpeg' ? 'jpg' : mimeType.split('/')[1];
  return prepareImage(d, ctx, {
    prompt,
    provider,
    model: fields.model,
    workspaceId,
    body: { inputs: fields.inputs },
    reference: { bytes: file.bytes, mimeType, name: `reference.${extension}` },
  });
}

/** The stored image of a generation, for members of its workspace (the owner without one). */
export async function readGeneratedImage(
  d: DomainDeps,
  ctx: TrustedContext,
  contentId: string,
  workspaceId: number | null,
) {
  const record = await d.generations.findById(contentId);
  const allowed =
    record &&
    !record.removedAt &&
    record.imageKey &&
    record.workspaceId === workspaceId &&
    (workspaceId !== null || record.userId === ctx.uid);
  if (!allowed) return null;
  return d.storage.get(record.imageKey!);
}
