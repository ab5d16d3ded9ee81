import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import {
  GENERATION_ROUTES,
  MAX_CHAT_FILE_BYTES,
  MAX_CHAT_FILES,
  MAX_CHAT_TOTAL_BYTES,
} from '@aict/contracts';
import {
  AppError,
  checkFiles,
  readUpload,
  RESPONDED,
  type MountRoute,
  type ReadUploadOptions,
} from '@aict/service-kit';
import { readAttachment, uploadAttachments } from '../domain/attachments';
import type { DomainDeps } from '../domain/domain-deps';
import { readGeneratedImage } from '../domain/generate-image';
import { codeError, fileNotFound, SELECT_A_WORKSPACE } from '../domain/generation.errors';
import { requireWorkspace } from '../domain/upstream';
import { ATTACHMENT_CHECK } from '../lib/file-checks';

/** Chat attachments (SPEC §5): up to MAX_CHAT_FILES files in `files`, each type checked. */
const CHAT_UPLOAD: ReadUploadOptions = {
  field: 'files',
  maxFiles: MAX_CHAT_FILES,
  maxFileBytes: MAX_CHAT_FILE_BYTES,
  maxTotalBytes: MAX_CHAT_TOTAL_BYTES,
  maxFields: 100,
  maxFieldBytes: 64 * 1024,
  accept: (files) => checkFiles(files, ATTACHMENT_CHECK),
  errors: {
    tooLarge: () => codeError('FILE.TOO_LARGE'),
    tooMany: () => codeError('FILE.TOO_MANY'),
    totalTooLarge: () => codeError('FILE.TOTAL_TOO_LARGE'),
    invalidType: () => codeError('FILE.INVALID_TYPE'),
    missing: () => codeError('VALIDATION.FAILED', "Attach at least one file in the field 'files'"),
    notMultipart: () =>
      new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE', 415, 'Send the files as multipart/form-data'),
  },
};

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function sendFileHeaders(res: Response, type: string, size: number) {
  res.set({
    'content-type': type,
    'content-length': String(size),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, max-age=3600',
  });
}

/** Chat attachments (upload, read by their owner) and generated images (workspace members). */
export function fileRoutes(mount: MountRoute, d: DomainDeps): void {
  const r = GENERATION_ROUTES;

  mount(r.uploadChatAttachments, async ({ req, ctx, workspaceId }) => {
    // Before the upload is read: nothing is stored without a workspace.
    const inWorkspace = requireWorkspace(workspaceId, SELECT_A_WORKSPACE.uploading);
    const upload = await readUpload(req, CHAT_UPLOAD);
    return { files: await uploadAttachments(d, ctx, inWorkspace, upload) };
  });

  mount(r.chatAttachment, async ({ ctx, res, params, workspaceId }) => {
    const { record, stream, size } = await readAttachment(d, ctx, params.id, workspaceId);
    sendFileHeaders(res, record.mimeType, size);
    res.set(
      'content-disposition',
      contentDisposition(
        record.mimeType.startsWith('image/') ? 'inline' : 'attachment',
        record.originalName,
      ),
    );
    await pipeline(stream, res);
    return RESPONDED;
  });

  mount(r.generatedImage, async ({ ctx, res, params, workspaceId }) => {
    const image = await readGeneratedImage(d, ctx, params.contentId, workspaceId);
    if (!image) throw fileNotFound();
    sendFileHeaders(res, image.info.contentType, image.info.size);
    await pipeline(image.stream, res);
    return RESPONDED;
  });
}
