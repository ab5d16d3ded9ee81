import { pipeline } from 'node:stream/promises';
import { WORKSPACE_ROUTES } from '@aict/contracts';
import { AppError, readOneFile, RESPONDED, type MountRoute } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { readLogo } from '../domain/read-logo';
import { uploadLogo } from '../domain/upload-logo';
import { logoUrlOf } from '../presenters/workspace.presenter';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export function logoRoutes(mount: MountRoute, d: DomainDeps): void {
  const maxBytes = d.config.LOGO_MAX_BYTES;
  const limit = `${Math.round((maxBytes / 1024 / 1024) * 100) / 100} MB`;

  mount(WORKSPACE_ROUTES.uploadLogo, async ({ ctx, req, workspaceId }) => {
    // The file is read only once the caller is known to be allowed.
    const readFile = async () =>
      (
        await readOneFile(req, {
          field: WORKSPACE_ROUTES.uploadLogo.upload.field,
          maxFileBytes: maxBytes,
          errors: {
            tooLarge: () =>
              new AppError('FILE.TOO_LARGE', 413, `The logo must be at most ${limit}.`),
          },
        })
      ).bytes;
    const workspace = await uploadLogo(d, ctx, workspaceId!, readFile);
    return { logoUrl: logoUrlOf(workspace)! }; // set: the logo was just stored
  });

  mount(WORKSPACE_ROUTES.logo, async ({ ctx, res, query, workspaceId }) => {
    const { logo, stream, size } = await readLogo(d, ctx, workspaceId!);
    res.set({
      'content-type': logo.contentType,
      'content-length': String(size),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': `inline; filename="logo.${EXTENSIONS[logo.contentType] ?? 'img'}"`,
      // A URL naming the current version never changes; others are checked each time.
      'cache-control':
        query.v === logo.version ? 'private, max-age=31536000, immutable' : 'private, no-cache',
    });
    try {
      await pipeline(stream, res);
    } catch (err) {
      d.logger.warn({ err, workspaceId }, 'logo stream interrupted');
      res.destroy();
    }
    return RESPONDED;
  });
}
