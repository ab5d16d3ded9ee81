import { pipeline } from 'node:stream/promises';
import type { RequestHandler, Router } from 'express';
import { IdParams, PromptQuery, ReferenceImageParams } from '@aict/contracts';
import { AppError, contextOf, readOneFile } from '@aict/service-kit';
import { z } from 'zod';
import type { DomainDeps } from '../domain/domain-deps';
import { imageTooLarge } from '../domain/prompt.errors';
import {
  readReferenceImage,
  removeReferenceImage,
  uploadReferenceImage,
} from '../domain/reference-images';
import { headerWorkspaceOf, paramsOf, queryOf } from '../lib/request';
import { presentPrompt } from '../presenters/prompt.presenter';

const ImageParams = z.object({
  id: IdParams.shape.id,
  n: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Image id must be 1–64 letters, digits, _ or -'),
});

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** Reference images of a prompt: upload, removal by index, and the image itself. */
export function referenceImageRoutes(
  router: Router,
  d: DomainDeps,
  signedIn: RequestHandler,
): void {
  const maxBytes = d.config.REFERENCE_IMAGE_MAX_BYTES;
  const oneFile = () =>
    AppError.badRequest('VALIDATION.FAILED', "Send exactly one file, in the field 'reference'");
  const upload = {
    field: 'reference',
    maxFileBytes: maxBytes,
    maxFields: 8,
    overheadBytes: 64 * 1024,
    errors: {
      tooLarge: () => imageTooLarge(maxBytes),
      tooMany: oneFile,
      missing: () =>
        AppError.badRequest('VALIDATION.FAILED', "The field 'reference' needs an image file"),
      notMultipart: () =>
        new AppError(
          'REQUEST.UNSUPPORTED_MEDIA_TYPE',
          415,
          "Send the image as multipart/form-data in the field 'reference'",
        ),
    },
  };

  router.post('/api/prompts/:id/reference-image', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    const named = [workspaceId, headerWorkspaceOf(req)];
    const read = () => readOneFile(req, upload);
    const ctx = contextOf(req);
    res.json(presentPrompt(ctx, await uploadReferenceImage(d, ctx, id, named, read)));
  });

  router.delete('/api/prompts/:id/reference-image/:index', signedIn, async (req, res) => {
    const { id, index } = paramsOf(ReferenceImageParams, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    const named = [workspaceId, headerWorkspaceOf(req)];
    const ctx = contextOf(req);
    res.json(presentPrompt(ctx, await removeReferenceImage(d, ctx, id, index, named)));
  });

  router.get('/api/prompts/:id/reference-images/:n', signedIn, async (req, res) => {
    const { id, n } = paramsOf(ImageParams, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    const named = [workspaceId, headerWorkspaceOf(req)];
    const { image, stream, size } = await readReferenceImage(d, contextOf(req), id, n, named);
    res.set({
      'content-type': image.contentType,
      'content-length': String(size),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': `inline; filename="reference-${image.id}.${EXTENSIONS[image.contentType] ?? 'img'}"`,
      // An image id names one image forever (a replacement gets a new id); a position does not.
      'cache-control':
        n === image.id ? 'private, max-age=31536000, immutable' : 'private, no-cache',
    });
    try {
      await pipeline(stream, res);
    } catch (err) {
      d.logger.warn({ err, promptId: id }, 'reference image stream interrupted');
      res.destroy();
    }
  });
}
