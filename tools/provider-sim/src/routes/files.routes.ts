import type { SimContext } from '../request-context';

const blobError = (code: string, message: string): string =>
  `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/** GET /files/<id>.png?se=…&sig=…: a generated image, while its signed URL has not expired. */
export function downloadFile(ctx: SimContext, name: string): void {
  const id = name.replace(/\.png$/, '');
  const found = ctx.images.get(id, ctx.url.searchParams.get('se'), ctx.url.searchParams.get('sig'));
  const xml = { 'content-type': 'application/xml' };
  switch (found.status) {
    case 'ok':
      ctx.send(200, found.png, {
        'content-type': 'image/png',
        'cache-control': 'private, max-age=0',
      });
      return;
    case 'expired':
      ctx.send(
        403,
        Buffer.from(blobError('AuthenticationFailed', 'Signed expiry time has passed.')),
        xml,
      );
      return;
    case 'bad-signature':
      ctx.send(
        403,
        Buffer.from(blobError('AuthenticationFailed', 'Signature did not match.')),
        xml,
      );
      return;
    case 'not-found':
      ctx.send(
        404,
        Buffer.from(blobError('BlobNotFound', 'The specified blob does not exist.')),
        xml,
      );
  }
}
