import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { attachmentUrl, FIELD_LIMITS, type Attachment, type TrustedContext } from '@aict/contracts';
import { cleanFileName, type CheckedUpload } from '@aict/service-kit';
import type { AttachmentRecord } from '../data/attachment.model';
import { extractText, UnreadableFileError } from '../lib/extract-text';
import { attachmentOf, detectAttachment, type AttachmentKind } from '../lib/file-checks';
import type { DomainDeps } from './domain-deps';
import { assertImagePixels, codeError, fileNotFound, fileUnreadable } from './generation.errors';

export const workspaceFolder = (workspaceId: number | null) =>
  `workspaces/${workspaceId ?? 'none'}`;

export function presentAttachment(record: AttachmentRecord): Attachment {
  return {
    id: record._id,
    originalName: record.originalName,
    mimeType: record.mimeType,
    size: record.size,
    url: attachmentUrl(record._id, record.workspaceId),
  };
}

/**
 * Stores the files of an upload the reader has checked (SPEC §5, in its order: type, size,
 * count, total; the type from the bytes) once their images are within the pixel limit, and
 * records them. A storage failure removes what was stored.
 */
export async function uploadAttachments(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number | null,
  upload: CheckedUpload,
): Promise<Attachment[]> {
  const complete = upload.files;
  const detected = upload.types.map(attachmentOf);
  if (detected.some((kind) => kind === null)) throw codeError('FILE.INVALID_TYPE');
  complete.forEach((file, index) => {
    if (detected[index]!.kind === 'image') assertImagePixels(file.bytes);
  });

  const userId = ctx.uid!;
  const now = new Date();
  const records: AttachmentRecord[] = complete.map((file, index) => {
    const id = randomUUID();
    return {
      _id: id,
      userId,
      workspaceId,
      originalName: cleanFileName(file.filename, FIELD_LIMITS.fileName),
      mimeType: detected[index]!.mimeType,
      size: file.bytes.length,
      key: `${workspaceFolder(workspaceId)}/attachments/${userId}/${id}`,
      createdAt: now,
    };
  });
  try {
    await Promise.all(
      records.map((record, index) =>
        d.storage.put(record.key, complete[index]!.bytes, { contentType: record.mimeType }),
      ),
    );
    await d.attachments.insertMany(records);
  } catch (err) {
    await Promise.allSettled(records.map((record) => d.storage.remove(record.key)));
    await d.attachments.removeByIds(records.map((r) => r._id)).catch(() => undefined);
    throw err;
  }
  d.logger.info({ count: records.length, workspaceId }, 'chat attachments stored');
  return records.map(presentAttachment);
}

/** The caller's own attachment in that workspace, or 404 (another user's or workspace's alike). */
export async function findOwnAttachment(
  d: DomainDeps,
  ctx: TrustedContext,
  id: string,
  workspaceId: number | null,
): Promise<AttachmentRecord> {
  const record = await d.attachments.findById(id);
  if (!record || record.userId !== ctx.uid || record.workspaceId !== workspaceId)
    throw fileNotFound();
  return record;
}

export async function readAttachment(
  d: DomainDeps,
  ctx: TrustedContext,
  id: string,
  workspaceId: number | null,
): Promise<{ record: AttachmentRecord; stream: Readable; size: number }> {
  const record = await findOwnAttachment(d, ctx, id, workspaceId);
  const object = await d.storage.get(record.key);
  if (!object) throw fileNotFound();
  return { record, stream: object.stream, size: object.info.size };
}

async function readBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export type UserPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * The attachments of a message as parts for the model: images as data URLs, documents as
 * their text. Every id must be the caller's own in this workspace (else 404, and nothing
 * reaches the model); a document that cannot be read in time is 422 FILE.UNREADABLE.
 */
export async function attachmentParts(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number | null,
  ids: readonly string[],
): Promise<{ parts: UserPart[]; ids: string[] }> {
  const unique = [...new Set(ids)];
  const records = await Promise.all(unique.map((id) => findOwnAttachment(d, ctx, id, workspaceId)));
  const limits = {
    timeoutMs: d.config.EXTRACT_TIMEOUT_MS,
    maxChars: d.config.EXTRACT_MAX_CHARS,
    maxMemoryMb: d.config.EXTRACT_MAX_MEMORY_MB,
  };
  const parts: UserPart[] = [];
  for (const record of records) {
    const object = await d.storage.get(record.key);
    if (!object) throw fileNotFound();
    const bytes = await readBytes(object.stream);
    if (record.mimeType.startsWith('image/')) {
      parts.push({
        type: 'image_url',
        image_url: { url: `data:${record.mimeType};base64,${bytes.toString('base64')}` },
      });
      continue;
    }
    const detected = await detectAttachment(bytes);
    if (!detected || detected.kind === 'image') throw fileUnreadable(record.originalName);
    try {
      const text = await extractText(
        bytes,
        detected.kind as Exclude<AttachmentKind, 'image'>,
        limits,
      );
      parts.push({ type: 'text', text: `Attached file "${record.originalName}":\n${text}` });
    } catch (err) {
      if (err instanceof UnreadableFileError) {
        d.logger.warn({ attachmentId: record._id, reason: err.message }, 'attachment unreadable');
        throw fileUnreadable(record.originalName, err.limitMessage);
      }
      throw err;
    }
  }
  return { parts, ids: unique };
}
