import type { EventData, Workspace } from '@aict/contracts';
import type { WorkspaceRecord } from '../data/workspace.model';

/** `/api/workspaces/<id>/logo?v=<version>`: served through the gateway, to members only. */
export function logoUrlOf(record: Pick<WorkspaceRecord, '_id' | 'logo'>): string | undefined {
  return record.logo ? `/api/workspaces/${record._id}/logo?v=${record.logo.version}` : undefined;
}

export function presentWorkspace(record: WorkspaceRecord): Workspace {
  const workspace: Workspace = {
    id: record._id,
    name: record.name,
    slug: record.slug,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
  if (record.description) workspace.description = record.description;
  const logoUrl = logoUrlOf(record);
  if (logoUrl) workspace.logoUrl = logoUrl;
  return workspace;
}

/** The data of workspace.created / workspace.updated. */
export function workspaceSnapshot(record: WorkspaceRecord): EventData<'workspace.updated'> {
  const data: EventData<'workspace.updated'> = {
    workspaceId: record._id,
    name: record.name,
    slug: record.slug,
  };
  if (record.description) data.description = record.description;
  const logoUrl = logoUrlOf(record);
  if (logoUrl) data.logoUrl = logoUrl;
  return data;
}
