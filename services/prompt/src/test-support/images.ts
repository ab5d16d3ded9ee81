import sharp from 'sharp';

// Test files, made on the fly: real images of each accepted type, and look-alikes.

export async function pngImage(width = 8, height = 6): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
}

export async function jpegImage(width = 8, height = 6): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#ff6633' } })
    .jpeg()
    .toBuffer();
}

export async function webpImage(width = 8, height = 6): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#33ff66' } })
    .webp()
    .toBuffer();
}

export const svgImage = () =>
  Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
      '<script>alert(1)</script><rect width="10" height="10"/></svg>',
  );

export const htmlPage = () =>
  Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

/** A multipart form as the Reference Image card sends it. */
export function referenceForm(
  bytes: Buffer,
  options: { filename?: string; type?: string; index?: number } = {},
): FormData {
  const form = new FormData();
  form.append(
    'reference',
    new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/png' }),
    options.filename ?? 'reference.png',
  );
  if (options.index !== undefined) form.append('index', String(options.index));
  return form;
}
