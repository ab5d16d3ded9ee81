import type { RequestHandler, Response, Router } from 'express';
import { pipeline } from 'node:stream/promises';
import {
  EntityId,
  MAX_CHAT_FILE_BYTES,
  MAX_CHAT_FILES,
  MAX_CHAT_TOTAL_BYTES,
  WORKSPACE_HEADER,
  WorkspaceId,
} from '@aict/contracts';
import {
  AppError,
  checkFiles,
  contextOf,
  readUpload,
  type ReadUploadOptions,
} from '@aict/service-kit';
import { z } from 'zod';
import { readAttachment, uploadAttachments } from '../domain/attachments';
import type { DomainDeps } from '../domain/domain-deps';
import { readGeneratedImage } from '../domain/generate-image';
import { codeError, fileNotFound } from '../domain/generation.errors';
import { requireWorkspace, workspaceInView } from '../domain/upstream';
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

const IdParams = z.object({ id: EntityId });
const ContentParams = z.object({ contentId: EntityId });
const WorkspaceQuery = z.object({ workspaceId: WorkspaceId.optional() });
const WorkspaceHeader = WorkspaceId.optional();

function namedWorkspaces(req: Parameters<RequestHandler>[0]): (number | undefined)[] {
  const query = WorkspaceQuery.parse(req.query);
  return [query.workspaceId, WorkspaceHeader.parse(req.headers[WORKSPACE_HEADER])];
}

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
export function fileRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  router.post('/api/uploads/chat-attachments', signedIn, async (req, res) => {
    const ctx = contextOf(req);
    const workspaceId = requireWorkspace(
      ctx,
      namedWorkspaces(req),
      'Select a workspace before uploading files.',
    );
    const upload = await readUpload(req, CHAT_UPLOAD);
    res.status(201).json({ files: await uploadAttachments(d, ctx, workspaceId, upload) });
  });

  router.get('/api/uploads/chat-attachments/:id', signedIn, async (req, res) => {
    const ctx = contextOf(req);
    const { id } = IdParams.parse(req.params);
    const workspaceId = workspaceInView(ctx, namedWorkspaces(req));
    const { record, stream, size } = await readAttachment(d, ctx, id, workspaceId);
    sendFileHeaders(res, record.mimeType, size);
    res.set(
      'content-disposition',
      contentDisposition(
        record.mimeType.startsWith('image/') ? 'inline' : 'attachment',
        record.originalName,
      ),
    );
    await pipeline(stream, res);
  });

  router.get('/api/images/:contentId', signedIn, async (req, res) => {
    const ctx = contextOf(req);
    const { contentId } = ContentParams.parse(req.params);
    const workspaceId = workspaceInView(ctx, namedWorkspaces(req));
    const image = await readGeneratedImage(d, ctx, contentId, workspaceId);
    if (!image) throw fileNotFound();
    sendFileHeaders(res, image.info.contentType, image.info.size);
    await pipeline(image.stream, res);
  });
}
