import { createHash } from 'node:crypto';
import { renderPng, sniffFile } from '../lib/image-bytes';
import { simErrors } from '../lib/openai-errors';
import type { ImageRequestSummary, ReceivedFile } from '../recorded-request';
import type { SimContext } from '../request-context';

/** Models that answer with a URL (dall-e) or with base64 (gpt-image-1). dall-e-2 is the API's default. */
const IMAGE_MODELS = ['dall-e-2', 'dall-e-3', 'gpt-image-1'];
const EDIT_MODELS = ['dall-e-2', 'gpt-image-1'];
const EDIT_FORMATS = ['png', 'jpeg', 'webp'];

interface ImageJob {
  model: string;
  prompt: string;
  n: number;
  size: string | undefined;
  quality: string | undefined;
  responseFormat: string | undefined;
  /** Mixed into the colour so an edit of another image looks different. */
  seed: string;
}

/** POST /v1/images/generations (JSON). */
export async function createImage(ctx: SimContext): Promise<void> {
  if (
    ctx.input.kind !== 'json' ||
    typeof ctx.input.value !== 'object' ||
    ctx.input.value === null
  ) {
    throw simErrors.badRequest('The request body must be a JSON object.');
  }
  const body = ctx.input.value as Record<string, unknown>;
  const job = readJob(
    {
      model: body.model,
      prompt: body.prompt,
      n: body.n,
      size: body.size,
      quality: body.quality,
      response_format: body.response_format,
    },
    IMAGE_MODELS,
  );
  ctx.record.image = summary(job, typeof body.style === 'string' ? body.style : undefined, []);
  ctx.touch();
  answer(ctx, job);
}

/** POST /v1/images/edits (multipart: image or image[], optional mask, prompt, model, …). */
export async function editImage(ctx: SimContext): Promise<void> {
  if (ctx.input.kind !== 'multipart') {
    throw simErrors.badRequest(
      "This endpoint expects multipart/form-data with an 'image' file and a 'prompt'.",
    );
  }
  const { fields, files } = ctx.input.body;
  const received: ReceivedFile[] = files.map((file) => {
    const sniffed = sniffFile(file.data);
    return {
      field: file.field,
      filename: file.filename,
      mimeType: file.mimeType,
      bytes: file.data.length,
      detectedFormat: sniffed.format,
      ...(sniffed.width !== undefined ? { width: sniffed.width, height: sniffed.height } : {}),
    };
  });
  ctx.record.image = { files: received };
  const job = readJob(
    {
      model: fields.model,
      prompt: fields.prompt,
      n: fields.n === undefined ? undefined : Number(fields.n),
      size: fields.size,
      quality: fields.quality,
      response_format: fields.response_format,
    },
    EDIT_MODELS,
  );
  ctx.record.image = summary(job, undefined, received);
  ctx.touch();

  const images = files.filter((file) => file.field === 'image' || file.field === 'image[]');
  if (images.length === 0) {
    throw simErrors.badRequest(
      "Missing required parameter: 'image'.",
      'image',
      'missing_required_parameter',
    );
  }
  const allowed = job.model === 'dall-e-2' ? ['png'] : EDIT_FORMATS;
  received.forEach((file) => {
    if (!allowed.includes(file.detectedFormat ?? '')) {
      throw simErrors.badRequest(
        `Invalid file '${file.field}': unsupported mimetype ('${file.mimeType}'). Supported file formats are ${allowed
          .map((format) => `'image/${format}'`)
          .join(', ')}.`,
        file.field,
        'invalid_image_format',
      );
    }
  });
  const imageDigest = createHash('sha256');
  for (const image of images) imageDigest.update(image.data);
  answer(ctx, { ...job, seed: `edit:${imageDigest.digest('hex')}` });
}

function readJob(input: Record<string, unknown>, models: string[]): ImageJob {
  const model = input.model === undefined || input.model === '' ? 'dall-e-2' : input.model;
  if (typeof model !== 'string')
    throw simErrors.badRequest(
      "Invalid type for 'model': expected a string.",
      'model',
      'invalid_type',
    );
  if (!models.includes(model)) {
    if (IMAGE_MODELS.includes(model)) {
      throw simErrors.badRequest(
        `Invalid value: '${model}'. Value must be one of ${models.map((m) => `'${m}'`).join(', ')}.`,
        'model',
        'invalid_value',
      );
    }
    throw simErrors.modelNotFound(model);
  }
  if (typeof input.prompt !== 'string' || input.prompt.length === 0) {
    throw simErrors.badRequest(
      "Missing required parameter: 'prompt'.",
      'prompt',
      'missing_required_parameter',
    );
  }
  const n = input.n ?? 1;
  const maxN = model === 'dall-e-3' ? 1 : 10;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > maxN) {
    throw simErrors.badRequest(
      `Invalid 'n': expected an integer between 1 and ${maxN}, but got ${String(input.n)} instead.`,
      'n',
      'invalid_value',
    );
  }
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : undefined;
  const responseFormat = text(input.response_format);
  if (responseFormat !== undefined && !['url', 'b64_json'].includes(responseFormat)) {
    throw simErrors.badRequest(
      `Invalid value: '${responseFormat}'. Supported values are: 'url' and 'b64_json'.`,
      'response_format',
      'invalid_value',
    );
  }
  return {
    model,
    prompt: input.prompt,
    n,
    size: text(input.size),
    quality: text(input.quality),
    responseFormat,
    seed: 'generate',
  };
}

function summary(
  job: ImageJob,
  style: string | undefined,
  files: ReceivedFile[],
): ImageRequestSummary {
  return {
    prompt: job.prompt,
    n: job.n,
    ...(job.size !== undefined ? { size: job.size } : {}),
    ...(job.quality !== undefined ? { quality: job.quality } : {}),
    ...(style !== undefined ? { style } : {}),
    ...(job.responseFormat !== undefined ? { responseFormat: job.responseFormat } : {}),
    files,
  };
}

/** dall-e: signed URLs served by the simulator (unless b64_json was asked); gpt-image-1: always base64. */
function answer(ctx: SimContext, job: ImageJob): void {
  const asBase64 = job.model === 'gpt-image-1' || job.responseFormat === 'b64_json';
  const imageIds: string[] = [];
  const data = Array.from({ length: job.n }, (_, index) => {
    const png = renderPng(
      `${job.seed}:${job.model}:${job.prompt}:${index}`,
      ctx.config.imageSizePx,
    );
    const revised = job.model === 'dall-e-3' ? { revised_prompt: job.prompt } : {};
    if (asBase64) return { b64_json: png.toString('base64'), ...revised };
    const stored = ctx.images.put(png, ctx.config.imageUrlTtlMs);
    imageIds.push(stored.id);
    return { url: `${ctx.origin}${stored.path}`, ...revised };
  });
  ctx.record.output = { imageIds };
  const gptImage =
    job.model === 'gpt-image-1'
      ? {
          background: 'opaque',
          output_format: 'png',
          quality: job.quality ?? 'medium',
          size: job.size ?? '1024x1024',
          usage: {
            input_tokens: Math.ceil(job.prompt.length / 4),
            input_tokens_details: {
              image_tokens: 0,
              text_tokens: Math.ceil(job.prompt.length / 4),
            },
            output_tokens: 1056 * job.n,
            total_tokens: Math.ceil(job.prompt.length / 4) + 1056 * job.n,
          },
        }
      : {};
  ctx.json(
    200,
    { created: Math.floor(Date.now() / 1000), data, ...gptImage },
    { 'x-request-id': ctx.record.requestId },
  );
}
