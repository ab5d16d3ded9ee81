import { CONTENT_ROUTES } from '@aict/contracts';
import { RESPONDED, type MountRoute } from '@aict/service-kit';
import { deleteContent } from '../domain/delete-content';
import type { DomainDeps } from '../domain/domain-deps';
import { listContents } from '../domain/list-contents';
import { getPromptResults } from '../domain/prompt-results';
import { reviewContent } from '../domain/review-content';
import { getStats } from '../domain/stats';
import { getContent, getConversation } from '../domain/view-content';
import { presentExport, renderExport } from '../presenters/content-export.presenter';
import {
  presentConversationEntry,
  presentRecord,
  presentSummary,
} from '../presenters/content.presenter';
import { presentPromptResults } from '../presenters/prompt-results.presenter';

/**
 * Content routes of SPEC §7 and the stats, mounted from their definitions (CONTENT_ROUTES):
 * the input is validated and the workspace in view authorised by the mount; each route runs
 * its use case and presents the result.
 */
export function contentRoutes(mount: MountRoute, d: DomainDeps): void {
  mount(CONTENT_ROUTES.list, async ({ ctx, query, workspaceId }) => {
    const page = await listContents(d, ctx, query, workspaceId);
    return { items: page.items.map(presentSummary), nextCursor: page.nextCursor };
  });

  mount(CONTENT_ROUTES.get, async ({ ctx, params, workspaceId }) =>
    presentRecord(await getContent(d, ctx, params.id, workspaceId)),
  );

  mount(CONTENT_ROUTES.conversation, async ({ ctx, params, workspaceId }) => {
    const entries = await getConversation(d, ctx, params.id, workspaceId);
    return entries.map(presentConversationEntry);
  });

  // The conversation as a download (issue 18): whoever may read the content may export it.
  mount(CONTENT_ROUTES.export, async ({ ctx, res, params, query, workspaceId }) => {
    const entries = await getConversation(d, ctx, params.id, workspaceId);
    const doc = presentExport(entries.map(presentConversationEntry));
    const file = await renderExport(doc, query.format);
    res
      .status(200)
      .attachment(file.fileName)
      .type(file.contentType)
      .set('cache-control', 'private, no-store')
      .send(file.body);
    return RESPONDED;
  });

  // Review states (issue 18): the author submits, admins approve or request changes.
  mount(
    CONTENT_ROUTES.review,
    async ({ ctx, params, body, workspaceId }) =>
      presentRecord(await reviewContent(d, ctx, params.id, body, workspaceId)),
    { bodyLimit: '16kb' },
  );

  mount(CONTENT_ROUTES.remove, ({ ctx, params, workspaceId }) =>
    deleteContent(d, ctx, params.id, workspaceId),
  );

  // Template results (issue 18): the prompt service decides who may see them (404/403).
  mount(CONTENT_ROUTES.promptResults, async ({ ctx, params, workspaceId }) =>
    presentPromptResults(await getPromptResults(d, ctx, params.id, workspaceId)),
  );

  // `member`: the mount has authorised the workspace the query names.
  mount(CONTENT_ROUTES.stats, ({ ctx, query }) => getStats(d, ctx, query.workspaceId));
}
