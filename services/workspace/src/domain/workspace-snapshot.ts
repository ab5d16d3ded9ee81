import type { EventData } from '@aict/contracts';
import type { WorkspaceRecord } from '../data/workspace.model';
import { logoUrlOf } from '../lib/logo-url';

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
