import { CONTENT_ROUTES, WORKSPACE_EXPORT_ITEMS_HEADER } from '@aict/contracts';
import { RESPONDED, type MountRoute } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { startWorkspaceExport } from '../domain/export-workspace';
import { writeWorkspaceZip } from '../presenters/workspace-export.presenter';

/** The workspace export (issue 18): a zip streamed as it is built, for admins. */
export function workspaceExportRoutes(mount: MountRoute, d: DomainDeps): void {
  mount(CONTENT_ROUTES.exportWorkspace, async ({ ctx, res, params }) => {
    const { id } = params;
    // Refusals and bad ids answer before the first byte (JSON errors).
    const job = await startWorkspaceExport(d, ctx, id);
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
    return RESPONDED;
  });
}
