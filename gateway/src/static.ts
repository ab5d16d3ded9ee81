import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type Response } from 'express';

export const REMOTES = ['chat', 'generation', 'admin'] as const;

/** File names that carry a content hash never change: cache them for a year. */
const HASHED = /[.-][0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpg|webp)$/;

function cacheHeaders(res: Response, path: string) {
  res.setHeader(
    'Cache-Control',
    HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
}

/**
 * Serves the built front-ends: the shell at `/` (with `index.html` for client routes)
 * and each remote at `/remotes/<name>/`.
 */
export function mountFrontends(app: Express, staticDir: string) {
  const options = { index: false, setHeaders: cacheHeaders, fallthrough: true } as const;
  for (const remote of REMOTES) {
    app.use(`/remotes/${remote}`, express.static(join(staticDir, remote, 'dist'), options));
    app.use(`/remotes/${remote}`, (_req, res) => {
      res.status(404).type('text/plain').send('Not found');
    });
  }
  const shellDir = join(staticDir, 'shell', 'dist');
  app.use(express.static(shellDir, options));
  const index = join(shellDir, 'index.html');
  // Client routes: any GET that is not an API call or a file gets the shell's page.
  app.get(/^\/(?!api\/|api$).*/, (req, res, next) => {
    if (/\.[a-z0-9]+$/i.test(req.path) || !existsSync(index)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
