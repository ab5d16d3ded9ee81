import { checkImagePixels } from '@aict/service-kit';
import sharp from 'sharp';

// Reference images are judged by their bytes, never by name or declared type: PNG, JPEG or
// WebP only. libvips may load nothing else in this process (SVG, PDF, TIFF, … are blocked),
// and every accepted image is decoded in full under a pixel limit and encoded again, so what
// is stored is a clean image of its type (no trailing HTML, no metadata such as GPS).

sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({
  operation: ['VipsForeignLoadPngBuffer', 'VipsForeignLoadJpegBuffer', 'VipsForeignLoadWebpBuffer'],
});

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

export interface CheckedImage {
  bytes: Buffer;
  mime: ImageMime;
  ext: 'png' | 'jpg' | 'webp';
  width: number;
  height: number;
}

export type ImageCheck =
  { ok: true; image: CheckedImage } | { ok: false; reason: 'not-an-image' | 'too-many-pixels' };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type the first bytes announce (checked again by decoding). */
export function sniffImageType(bytes: Buffer): ImageMime | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'image/jpeg';
  if (
    bytes.length >= 16 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}

/** Decodes and re-encodes an uploaded image; says why when it is not an acceptable one. */
export async function checkImage(bytes: Buffer, maxPixels: number): Promise<ImageCheck> {
  const mime = sniffImageType(bytes);
  if (!mime) return { ok: false, reason: 'not-an-image' };
  // The size the header declares, before libvips decodes anything.
  const pixels = checkImagePixels(bytes, maxPixels);
  if (pixels !== 'ok')
    return { ok: false, reason: pixels === 'too-many-pixels' ? 'too-many-pixels' : 'not-an-image' };
  try {
    // EXIF orientation applied, then the image written afresh in its own format.
    const pipeline = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' }).rotate();
    const encoded =
      mime === 'image/png'
        ? pipeline.png()
        : mime === 'image/jpeg'
          ? pipeline.jpeg({ quality: 92, mozjpeg: true })
          : pipeline.webp({ quality: 92 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      ok: true,
      image: {
        bytes: data,
        mime,
        ext: mime === 'image/png' ? 'png' : mime === 'image/jpeg' ? 'jpg' : 'webp',
        width: info.width,
        height: info.height,
      },
    };
  } catch (err) {
    if (/pixel limit/i.test((err as Error).message))
      return { ok: false, reason: 'too-many-pixels' };
    return { ok: false, reason: 'not-an-image' };
  }
}
