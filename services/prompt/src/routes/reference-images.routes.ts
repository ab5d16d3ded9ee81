import { pipeline } from 'node:stream/promises';
import { PROMPT_ROUTES } from '@aict/contracts';
import { AppError, readOneFile, RESPONDED, type MountRoute } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { imageTooLarge } from '../domain/prompt.errors';
import {
  readReferenceImage,
  removeReferenceImage,
  uploadReferenceImage,
} from '../domain/reference-images';
import { presentPrompt } from '../presenters/prompt.presenter';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** Reference images of a prompt: upload, removal by index, and the image itself. */
export function referenceImageRoutes(mount: MountRoute, d: DomainDeps): void {
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

  mount(PROMPT_ROUTES.uploadReferenceImage, async ({ ctx, req, params, workspaceId }) => {
    const read = () => readOneFile(req, upload);
    return presentPrompt(ctx, await uploadReferenceImage(d, ctx, params.id, workspaceId, read));
  });

  mount(PROMPT_ROUTES.removeReferenceImage, async ({ ctx, params, workspaceId }) => {
    const { id, index } = params;
    return presentPrompt(ctx, await removeReferenceImage(d, ctx, id, index, workspaceId));
  });

  mount(PROMPT_ROUTES.referenceImage, async ({ ctx, res, params, workspaceId }) => {
    const { id, n } = params;
    const { image, stream, size } = await readReferenceImage(d, ctx, id, n, workspaceId);
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
    return RESPONDED;
  });
}
