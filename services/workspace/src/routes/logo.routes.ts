import { pipeline } from 'node:stream/promises';
import type { Router, RequestHandler } from 'express';
import { WorkspaceParams } from '@aict/contracts';
import { AppError, contextOf, readOneFile } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { readLogo } from '../domain/read-logo';
import { uploadLogo } from '../domain/upload-logo';
import { paramsOf } from '../lib/params';
import { logoUrlOf } from '../presenters/workspace.presenter';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export function logoRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  const maxBytes = d.config.LOGO_MAX_BYTES;
  const limit = `${Math.round((maxBytes / 1024 / 1024) * 100) / 100} MB`;

  router.post('/api/workspaces/:id/logo', signedIn, async (req, res) => {
    const { id } = paramsOf(WorkspaceParams, req);
    // The file is read only once the caller is known to be allowed.
    const readFile = async () =>
      (
        await readOneFile(req, {
          field: 'logo',
          maxFileBytes: maxBytes,
          errors: {
            tooLarge: () =>
              new AppError('FILE.TOO_LARGE', 413, `The logo must be at most ${limit}.`),
          },
        })
      ).bytes;
    const workspace = await uploadLogo(d, contextOf(req), id, readFile);
    res.json({ logoUrl: logoUrlOf(workspace) });
  });

  router.get('/api/workspaces/:id/logo', signedIn, async (req, res) => {
    const { id } = paramsOf(WorkspaceParams, req);
    const { logo, stream, size } = await readLogo(d, contextOf(req), id);
    const current = req.query.v === logo.version;
    res.set({
      'content-type': logo.contentType,
      'content-length': String(size),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': `inline; filename="logo.${EXTENSIONS[logo.contentType] ?? 'img'}"`,
      // A URL naming the current version never changes; others are checked each time.
      'cache-control': current ? 'private, max-age=31536000, immutable' : 'private, no-cache',
    });
    try {
      await pipeline(stream, res);
    } catch (err) {
      d.logger.warn({ err, workspaceId: id }, 'logo stream interrupted');
      res.destroy();
    }
  });
}
