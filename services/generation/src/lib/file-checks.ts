import { runInWorker } from './worker';

/** What a chat attachment is, decided from its bytes (never from its name or declared type). */
export type AttachmentKind = 'image' | 'pdf' | 'doc' | 'docx' | 'text';

export interface DetectedFile {
  kind: AttachmentKind;
  /** The media type we store and serve. */
  mimeType: string;
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const BY_DETECTED_MIME: Record<string, DetectedFile> = {
  'image/png': { kind: 'image', mimeType: 'image/png' },
  'image/jpeg': { kind: 'image', mimeType: 'image/jpeg' },
  'image/webp': { kind: 'image', mimeType: 'image/webp' },
  'application/pdf': { kind: 'pdf', mimeType: 'application/pdf' },
  [DOCX]: { kind: 'docx', mimeType: DOCX },
  // Legacy .doc files are OLE compound files; word-extractor tells a Word file from others.
  'application/x-cfb': { kind: 'doc', mimeType: 'application/msword' },
};

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

/** Names and declared types of markup pages and images: not among SPEC §5's types. */
const MARKUP_NAME = /\.(?:html?|xhtml|svgz?|xml|xsl)$/i;
const MARKUP_TYPE =
  /^(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|(?:text|application)\/xml)\b/i;

/** A file sent as an HTML page, an SVG or XML (by its name or declared type): refused. */
export function declaredAsMarkup(filename: string, declaredType: string): boolean {
  return MARKUP_NAME.test(filename.trim()) || MARKUP_TYPE.test(declaredType.trim());
}

// file-type (ESM only) runs in a worker: see runInWorker.
const DETECT_SOURCE = `
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

/** The media types file-type finds in each buffer (null: none), in one worker. */
export function sniffMimeTypes(files: readonly Buffer[]): Promise<(string | null)[]> {
  if (files.length === 0) return Promise.resolve([]);
  return runInWorker<(string | null)[]>(
    DETECT_SOURCE,
    { files: files.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.length)) },
    { timeoutMs: 10_000, maxMemoryMb: 256 },
  );
}

/** The kind of each attachment (SPEC §5's list), or null for a file that is not allowed. */
export async function detectAttachments(
  files: readonly Buffer[],
): Promise<(DetectedFile | null)[]> {
  const sniffed = await sniffMimeTypes(files);
  return files.map((bytes, index) => {
    if (bytes.length === 0) return null;
    const mime = sniffed[index];
    if (mime) return BY_DETECTED_MIME[mime] ?? null;
    return isPlainText(bytes) ? { kind: 'text', mimeType: 'text/plain' } : null;
  });
}

export async function detectAttachment(bytes: Buffer): Promise<DetectedFile | null> {
  return (await detectAttachments([bytes]))[0] ?? null;
}

/** The media type of an image (PNG, JPEG, WebP) from its bytes, or null. */
export async function detectImage(bytes: Buffer): Promise<string | null> {
  const found = await detectAttachment(bytes);
  return found?.kind === 'image' ? found.mimeType : null;
}
