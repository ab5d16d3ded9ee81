import { useTranslation, useWorkspace } from '@aict/web-kit';
import { useAssignableWorkspaces } from '../api/get-all-workspaces';

/** A workspace's name by id, from every list at hand ('Workspace {id}' when unknown). */
export function useWorkspaceNames(): (workspaceId: number | string) => string {
  const { t } = useTranslation();
  const { workspaces: mine } = useWorkspace();
  const { workspaces: assignable } = useAssignableWorkspaces();
  const names = new Map<string, string>();
  for (const workspace of [...mine, ...assignable]) names.set(String(workspace.id), workspace.name);
  return (workspaceId) =>
    names.get(String(workspaceId)) ?? t('admin.users.workspaceFallback', { id: workspaceId });
}
