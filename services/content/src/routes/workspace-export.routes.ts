import type { RequestHandler, Router } from 'express';
import { WORKSPACE_EXPORT_ITEMS_HEADER, WorkspaceParams } from '@aict/contracts';
import { contextOf } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { startWorkspaceExport } from '../domain/export-workspace';
import { paramsOf } from '../lib/request';
import { writeWorkspaceZip } from '../presenters/workspace-export.presenter';

/** The workspace export (issue 18): a zip streamed as it is built, for admins. */
export function workspaceExportRoutes(
  router: Router,
  d: DomainDeps,
  signedIn: RequestHandler,
): void {
  router.get('/api/workspaces/:id/export', signedIn, async (req, res) => {
    const { id } = paramsOf(WorkspaceParams, req);
    // Refusals and bad ids answer before the first byte (JSON errors).
    const job = await startWorkspaceExport(d, contextOf(req), id);
    const day = new Date().toISOString().slice(0, 10);
    res
      .status(200)
      .attachment(`workspace-${id}-export-${day}.zip`)
      .type('application/zip')
      .set('cache-control', 'private, no-store')
      .set(WORKSPACE_EXPORT_ITEMS_HEADER, String(job.total));
    res.flushHeaders();
    try {
      const manifest = await writeWorkspaceZip(job, res);
      d.logger.info(manifest, 'workspace exported');
    } catch (err) {
      // The answer is cut (no end of archive): the client sees a failed download.
      d.logger.warn({ err, workspaceId: id }, 'workspace export aborted');
    }
  });
}
