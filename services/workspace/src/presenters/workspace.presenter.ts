import type { Workspace } from '@aict/contracts';
import type { WorkspaceRecord } from '../data/workspace.model';
import { logoUrlOf } from '../lib/logo-url';

export { logoUrlOf };

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
