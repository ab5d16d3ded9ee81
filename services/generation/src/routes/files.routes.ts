import type { RequestHandler, Response, Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { EntityId, WORKSPACE_HEADER, WorkspaceId } from '@aict/contracts';
import { contextOf } from '@aict/service-kit';
import { z } from 'zod';
import { readAttachment, uploadAttachments } from '../domain/attachments';
import type { DomainDeps } from '../domain/domain-deps';
import { readGeneratedImage } from '../domain/generate-image';
import { fileNotFound } from '../domain/generation.errors';
import { requireWorkspace, workspaceInView } from '../domain/upstream';
import { CHAT_UPLOAD, readMultipart } from '../lib/multipart';

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
    const upload = await readMultipart(req, CHAT_UPLOAD);
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
