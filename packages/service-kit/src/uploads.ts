import { imageSize } from 'image-size';
import { MAX_IMAGE_PIXELS } from '@aict/contracts';
import { AppError } from './errors';

// What every upload reader shares: the name a file is shown under, and the pixel limit of
// images read from their header alone (before anything decodes them).

/**
 * Bidirectional controls (they reorder what is shown: "evil\u202Etxt.exe"), C0/C1 control
 * characters, and the separators and zero-width marks that hide in names.
 */
const HIDDEN_OR_CONTROL =
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The name of an uploaded file as it may be stored and displayed: Unicode NFC, without
 * bidi or control characters, without path separators, trimmed and at most `maxLength`
 * characters ('file' when nothing is left).
 */
export function cleanFileName(name: string, maxLength = 255): string {
  const cleaned = name
    .normalize('NFC')
    .replace(HIDDEN_OR_CONTROL, '')
    .replace(/[/\\]/g, '_')
    .trim();
  return Array.from(cleaned || 'file')
    .slice(0, maxLength)
    .join('');
}

export interface ImageDimensions {
  width: number;
  height: number;
}

/** Width and height as the image's header declares them (nothing decoded), or null. */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | null {
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
}

export type PixelCheck = 'ok' | 'too-many-pixels' | 'unreadable';

/** Whether an image's header declares at most `maxPixels` (default: MAX_IMAGE_PIXELS). */
export function checkImagePixels(bytes: Uint8Array, maxPixels = MAX_IMAGE_PIXELS): PixelCheck {
  const size = imageDimensions(bytes);
  if (!size) return 'unreadable';
  return size.width * size.height > maxPixels ? 'too-many-pixels' : 'ok';
}

/** The user's sentence for an image over the limit. */
export function tooManyPixelsMessage(maxPixels = MAX_IMAGE_PIXELS): string {
  return `The image must be at most ${Math.floor(maxPixels / 1_000_000)} megapixels.`;
}

/** The answer to an image over the limit: 413 FILE.TOO_LARGE with the limit in its details. */
export function tooManyPixels(maxPixels = MAX_IMAGE_PIXELS): AppError {
  return new AppError('FILE.TOO_LARGE', 413, tooManyPixelsMessage(maxPixels), {
    details: { maxPixels },
  });
}

/**
 * Refuses (tooManyPixels) an image whose header declares more than `maxPixels`; otherwise
 * says whether the header could be read ('ok') or not ('unreadable': the caller decides).
 */
export function assertImagePixels(
  bytes: Uint8Array,
  maxPixels = MAX_IMAGE_PIXELS,
): Exclude<PixelCheck, 'too-many-pixels'> {
  const check = checkImagePixels(bytes, maxPixels);
  if (check === 'too-many-pixels') throw tooManyPixels(maxPixels);
  return check;
}
