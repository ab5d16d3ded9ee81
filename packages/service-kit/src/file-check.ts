import { Worker } from 'node:worker_threads';
import { MAX_IMAGE_PIXELS } from '@aict/contracts';
import { assertImagePixels } from './uploads';

// What an uploaded file is, decided from its bytes (never from its name or declared type),
// and whether an image is within the pixel limit its header declares.

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

export interface SniffedImage {
  mime: ImageMime;
  ext: 'png' | 'jpg' | 'webp';
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * PNG (signature, then the IHDR chunk), JPEG (SOI, then a marker) or WebP (RIFF container of
 * type WEBP with a VP8/VP8L/VP8X chunk), from the first bytes alone; anything else (SVG and
 * HTML included) is null.
 */
export function sniffImage(bytes: Buffer): SniffedImage | null {
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

/**
 * True when the bytes are UTF-8 text without NUL. What the text says does not matter (HTML
 * in a .txt is text): it is stored as text/plain and served as a download with nosniff.
 */
export function isPlainText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Names and declared types of markup pages and images (HTML, SVG, XML). */
const MARKUP_NAME = /\.(?:html?|xhtml|svgz?|xml|xsl)$/i;
const MARKUP_TYPE =
  /^(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|(?:text|application)\/xml)\b/i;

/** A file sent as an HTML page, an SVG or XML (by its name or declared type). */
export function declaredAsMarkup(filename: string, declaredType: string): boolean {
  return MARKUP_NAME.test(filename.trim()) || MARKUP_TYPE.test(declaredType.trim());
}

// file-type is ESM only: it runs in a worker thread (plain Node, where require() loads ESM,
// also under jest), bounded in time and memory so that a hostile file cannot stall us.
const SNIFF_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { fileTypeFromBuffer } = createRequire(workerData.base)('file-type');
Promise.all(workerData.files.map(async (bytes) => {
  const found = await fileTypeFromBuffer(new Uint8Array(bytes));
  return found ? found.mime : null;
})).then(
  (value) => parentPort.postMessage({ ok: true, value }),
  (err) => parentPort.postMessage({ ok: false, reason: String(err && err.message || err) }),
);
`;

const SNIFF_TIMEOUT_MS = 10_000;

/** The media type file-type finds in each buffer (null: none), in one worker. */
export function sniffMimeTypes(files: readonly Buffer[]): Promise<(string | null)[]> {
  if (files.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const worker = new Worker(SNIFF_SOURCE, {
      eval: true,
      workerData: {
        base: __filename,
        files: files.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.length)),
      },
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      action();
    };
    const fail = (reason: string) => finish(() => reject(new Error(`file sniffing: ${reason}`)));
    const timer = setTimeout(() => fail('it took too long'), SNIFF_TIMEOUT_MS);
    worker.on('message', (m: { ok: boolean; value?: (string | null)[]; reason?: string }) =>
      m.ok ? finish(() => resolve(m.value!)) : fail(m.reason ?? 'failed'),
    );
    worker.on('error', (err) => fail(err.message));
    worker.on('exit', (code) => fail(`stopped (${code})`));
  });
}

export interface FileCheckOptions {
  /** The media types accepted, as file-type names them (`image/png`, `application/pdf`…). */
  allowed: readonly string[];
  /**
   * Accept UTF-8 text without NUL (which file-type does not name) as `text/plain`, unless it
   * was sent as markup (an .html/.svg/.xml name or such a declared type).
   */
  text?: boolean;
  /**
   * Refuse (413 FILE.TOO_LARGE, `tooManyPixels`) an image whose header declares more pixels
   * than this (default MAX_IMAGE_PIXELS); `false`: the caller checks later.
   */
  maxPixels?: number | false;
}

export interface FileToCheck {
  bytes: Buffer;
  filename?: string;
  declaredType?: string;
}

/**
 * The media type of each file from its bytes when it is among `allowed` (else null; an
 * empty file is null), images held to the pixel cap. One worker sniffs them all.
 */
export async function checkFiles(
  files: readonly FileToCheck[],
  options: FileCheckOptions,
): Promise<(string | null)[]> {
  const sniffed = await sniffMimeTypes(files.map((file) => file.bytes));
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
  return files.map(({ bytes, filename = '', declaredType = '' }, index) => {
    if (bytes.length === 0) return null;
    const mime = sniffed[index];
    if (mime) {
      if (!options.allowed.includes(mime)) return null;
      if (mime.startsWith('image/') && maxPixels !== false) assertImagePixels(bytes, maxPixels);
      return mime;
    }
    if (options.text && isPlainText(bytes) && !declaredAsMarkup(filename, declaredType))
      return 'text/plain';
    return null;
  });
}

/** checkFiles for one file. */
export async function checkFile(
  file: FileToCheck,
  options: FileCheckOptions,
): Promise<string | null> {
  return (await checkFiles([file], options))[0] ?? null;
}
