// Serves the built front-ends the way the gateway does: the shell's dist at /, each remote's
// dist at /remotes/<name>/, index.html for client routes, a strict CSP (no inline script or
// style). /api/* goes to the gateway of the local run (AICT_API_URL, default :8080).
//
//   npm run build -w @aict/shell-app (and the remotes), then
//   node frontends/shell/scripts/preview.mjs            → http://127.0.0.1:4173
//   PREVIEW_FAIL_REMOTES=admin node …/preview.mjs       → admin's remoteEntry.js answers 404
//
// createPreviewServer() is exported for scripts that want their own /api handler.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const frontends = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REMOTES = ['chat', 'generation', 'admin'];

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

function fileIn(root, urlPath) {
  const file = path.join(
    root,
    path.normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, ''),
  );
  if (!file.startsWith(root)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

function send(res, file) {
  const name = path.basename(file);
  const hashed = /\.[0-9a-f]{8,}\.(js|css)$/.test(name);
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    // content-hashed files never change; remoteEntry.js and index.html must be revalidated
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
  });
  createReadStream(file).pipe(res);
}

function notFound(res) {
  res.writeHead(404, { 'Content-Type': 'text/plain' });
  res.end('Not found');
}

function proxyApi(target) {
  return (req, res) => {
    const upstream = http.request(
      new URL(req.url, target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end('Bad gateway');
    });
    req.pipe(upstream);
  };
}

/**
 * @param {{ apiHandler?: http.RequestListener, failRemotes?: string[] }} [options]
 */
export function createPreviewServer({
  apiHandler = proxyApi(process.env.AICT_API_URL ?? 'http://127.0.0.1:8080'),
  failRemotes = [],
} = {}) {
  const shellDist = path.join(frontends, 'shell/dist');
  return http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://preview');
    if (pathname === '/api' || pathname.startsWith('/api/')) return apiHandler(req, res);
    const remote = REMOTES.find((name) => pathname.startsWith(`/remotes/${name}/`));
    if (remote) {
      if (failRemotes.includes(remote)) return notFound(res);
      const file = fileIn(
        path.join(frontends, remote, 'dist'),
        pathname.slice(`/remotes/${remote}`.length),
      );
      return file ? send(res, file) : notFound(res);
    }
    const file = fileIn(shellDist, pathname);
    if (file) return send(res, file);
    // a client route (no file extension): the shell's index.html
    if (!path.extname(pathname)) return send(res, path.join(shellDist, 'index.html'));
    return notFound(res);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 4173);
  const failRemotes = (process.env.PREVIEW_FAIL_REMOTES ?? '').split(',').filter(Boolean);
  createPreviewServer({ failRemotes }).listen(port, '127.0.0.1', () => {
    console.log(
      `preview on http://127.0.0.1:${port}` +
        (failRemotes.length ? ` (failing: ${failRemotes.join(', ')})` : ''),
    );
  });
}
