import type { WorkspaceRecord } from '../data/workspace.model';

/** `/api/workspaces/<id>/logo?v=<version>`: served through the gateway, to members only. */
export function logoUrlOf(record: Pick<WorkspaceRecord, '_id' | 'logo'>): string | undefined {
  return record.logo ? `/api/workspaces/${record._id}/logo?v=${record.logo.version}` : undefined;
}
