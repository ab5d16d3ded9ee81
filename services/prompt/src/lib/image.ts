import { checkImagePixels, sniffImage, type ImageMime } from '@aict/service-kit';
import sharp from 'sharp';

// Reference images are judged by their bytes, never by name or declared type: PNG, JPEG or
// WebP only. libvips may load nothing else in this process (SVG, PDF, TIFF, … are blocked),
// and every accepted image is decoded in full under a pixel limit and encoded again, so what
// is stored is a clean image of its type (no trailing HTML, no metadata such as GPS).

let blocked = false;

/**
 * sharp with every loader but those three blocked. Set up at the first image, not when this
 * file loads: with the build's lazy requires (.swcrc) sharp and libvips (some 10 MB of
 * memory) are loaded only by a process that receives an image.
 */
function imageSharp(): typeof sharp {
  if (!blocked) {
    sharp.block({ operation: ['VipsForeignLoad'] });
    sharp.unblock({
      operation: [
        'VipsForeignLoadPngBuffer',
        'VipsForeignLoadJpegBuffer',
        'VipsForeignLoadWebpBuffer',
      ],
    });
    blocked = true;
  }
  return sharp;
}

export interface CheckedImage {
  bytes: Buffer;
  mime: ImageMime;
  ext: 'png' | 'jpg' | 'webp';
  width: number;
  height: number;
}

export type ImageCheck =
  { ok: true; image: CheckedImage } | { ok: false; reason: 'not-an-image' | 'too-many-pixels' };

/** Decodes and re-encodes an uploaded image; says why when it is not an acceptable one. */
export async function checkImage(bytes: Buffer, maxPixels: number): Promise<ImageCheck> {
  const sniffed = sniffImage(bytes);
  if (!sniffed) return { ok: false, reason: 'not-an-image' };
  const { mime, ext } = sniffed;
  // The size the header declares, before libvips decodes anything.
  const pixels = checkImagePixels(bytes, maxPixels);
  if (pixels !== 'ok')
    return { ok: false, reason: pixels === 'too-many-pixels' ? 'too-many-pixels' : 'not-an-image' };
  try {
    // EXIF orientation applied, then the image written afresh in its own format.
    const pipeline = imageSharp()(bytes, { limitInputPixels: maxPixels, failOn: 'error' }).rotate();
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
        ext,
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
