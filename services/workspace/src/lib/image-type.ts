/**
 * The image type of a file, read from its bytes (never from its name or declared type):
 * PNG (signature, then the IHDR chunk), JPEG (SOI, then a marker) or WebP (RIFF container of
 * type WEBP with a VP8/VP8L/VP8X chunk). Anything else, SVG and HTML included, is null.
 */
export type ImageType = { mime: 'image/png' | 'image/jpeg' | 'image/webp'; ext: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function detectImageType(bytes: Buffer): ImageType | null {
  if (
    bytes.length >= 24 &&
    bytes.subarray(0, 8).equals(PNG_SIGNATURE) &&
    bytes.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return { mime: 'image/png', ext: 'png' };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { mime: 'image/jpeg', ext: 'jpg' };
  }
  if (
    bytes.length >= 16 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP' &&
    ['VP8 ', 'VP8L', 'VP8X'].includes(bytes.toString('latin1', 12, 16))
  ) {
    return { mime: 'image/webp', ext: 'webp' };
  }
  return null;
}
