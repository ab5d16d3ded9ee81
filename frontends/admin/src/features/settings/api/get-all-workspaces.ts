import { useQuery } from '@tanstack/react-query';
import type { Workspace, WorkspacesResponse } from '@aict/contracts';
import { apiJson, queryKeys, useSession, useWorkspace } from '@aict/web-kit';

/** GET /api/workspaces: every workspace (super admins only). */
export function getAllWorkspaces(): Promise<WorkspacesResponse> {
  return apiJson<WorkspacesResponse>('GET', queryKeys.workspaces()[0]);
}

export function useAllWorkspaces({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: queryKeys.workspaces(), queryFn: getAllWorkspaces, enabled });
}

/**
 * The workspaces the signed-in admin may assign users to: every workspace for a super admin,
 * else the current one only (SPEC §6: workspace admins manage their workspace's users).
 */
export function useAssignableWorkspaces(): { workspaces: Workspace[]; isLoading: boolean } {
  const { user } = useSession();
  const { currentWorkspace } = useWorkspace();
  const superAdmin = user?.isSuperAdmin === true;
  const all = useAllWorkspaces({ enabled: superAdmin });
  if (superAdmin) return { workspaces: all.data ?? [], isLoading: all.isPending };
  return { workspaces: currentWorkspace ? [currentWorkspace] : [], isLoading: false };
}
