import { checkFiles } from '@aict/service-kit';

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
  'text/plain': { kind: 'text', mimeType: 'text/plain' },
};

/**
 * SPEC §5's attachment types, for checkFiles: UTF-8 text too (unless sent as markup), images
 * not held to the pixel cap here (uploadAttachments checks it after the count and sizes).
 */
export const ATTACHMENT_CHECK = {
  allowed: Object.keys(BY_DETECTED_MIME),
  text: true,
  maxPixels: false,
} as const;

/** The attachment of a media type checkFiles found (null: not allowed). */
export const attachmentOf = (mime: string | null): DetectedFile | null =>
  (mime && BY_DETECTED_MIME[mime]) || null;

/** The kind of each attachment (SPEC §5's list), or null for a file that is not allowed. */
export async function detectAttachments(
  files: readonly Buffer[],
): Promise<(DetectedFile | null)[]> {
  const found = await checkFiles(
    files.map((bytes) => ({ bytes })),
    ATTACHMENT_CHECK,
  );
  return found.map(attachmentOf);
}

export async function detectAttachment(bytes: Buffer): Promise<DetectedFile | null> {
  return (await detectAttachments([bytes]))[0] ?? null;
}

/** The media type of an image (PNG, JPEG, WebP) from its bytes, or null. */
export async function detectImage(bytes: Buffer): Promise<string | null> {
  const found = await detectAttachment(bytes);
  return found?.kind === 'image' ? found.mimeType : null;
}
