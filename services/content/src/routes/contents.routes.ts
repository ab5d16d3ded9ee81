import type { RequestHandler, Router } from 'express';
import {
  ExportContentQuery,
  IdParams,
  ListContentsQuery,
  ReviewContentBody,
} from '@aict/contracts';
import { contextOf, jsonBody } from '@aict/service-kit';
import { deleteContent } from '../domain/delete-content';
import type { DomainDeps } from '../domain/domain-deps';
import { listContents } from '../domain/list-contents';
import { reviewContent } from '../domain/review-content';
import { getStats } from '../domain/stats';
import { getContent, getConversation } from '../domain/view-content';
import {
  bodyOf,
  headerWorkspaceOf,
  OptionalWorkspaceQuery,
  paramsOf,
  queryOf,
} from '../lib/request';
import { presentExport, renderExport } from '../presenters/content-export.presenter';
import {
  presentConversationEntry,
  presentRecord,
  presentSummary,
} from '../presenters/content.presenter';

/** Content routes of SPEC §7 and the stats. Each: context → validate → use case → presenter. */
export function contentRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  const named = (req: Parameters<RequestHandler>[0]) => [
    queryOf(OptionalWorkspaceQuery, req).workspaceId,
    headerWorkspaceOf(req),
  ];

  router.get('/api/contents', signedIn, async (req, res) => {
    const query = queryOf(ListContentsQuery, req);
    const page = await listContents(d, contextOf(req), query, headerWorkspaceOf(req));
    res.json({ items: page.items.map(presentSummary), nextCursor: page.nextCursor });
  });

  router.get('/api/contents/:id', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    res.json(presentRecord(await getContent(d, contextOf(req), id, named(req))));
  });

  router.get('/api/contents/:id/conversation', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const entries = await getConversation(d, contextOf(req), id, named(req));
    res.json(entries.map(presentConversationEntry));
  });

  // The conversation as a download (issue 18): whoever may read the content may export it.
  router.get('/api/contents/:id/export', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const { format, workspaceId } = queryOf(ExportContentQuery, req);
    const entries = await getConversation(d, contextOf(req), id, [
      workspaceId,
      headerWorkspaceOf(req),
    ]);
    const file = await renderExport(presentExport(entries.map(presentConversationEntry)), format);
    res
      .status(200)
      .attachment(file.fileName)
      .type(file.contentType)
      .set('cache-control', 'private, no-store')
      .send(file.body);
  });

  // Review states (issue 18): the author submits, admins approve or request changes.
  router.post('/api/contents/:id/review', signedIn, jsonBody('16kb'), async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const body = bodyOf(ReviewContentBody, req);
    res.json(presentRecord(await reviewContent(d, contextOf(req), id, body, named(req))));
  });

  router.delete('/api/contents/:id', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    await deleteContent(d, contextOf(req), id, named(req));
    res.status(204).end();
  });

  router.get('/api/stats', signedIn, async (req, res) => {
    res.json(await getStats(d, contextOf(req), named(req)));
  });
}
