import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '@aict/contracts';
import { STORAGE_KEYS } from '@aict/contracts/constants';
import { isAdminOf } from '../lib/contracts-subset';
import { getQueryFn, isApiError } from '../api/http';
import { queryKeys } from '../api/queries';
import { readStoredWorkspaceId, writeStorage } from '../lib/storage';
import { useSession } from './session-provider';
import { useWorkspaceMutations, type WorkspaceMutations } from './workspace-mutations';

export interface WorkspaceValue extends WorkspaceMutations {
  /** The signed-in user's workspaces; empty when signed out, on a 403 or while loading. */
  workspaces: Workspace[];
  /** True while a signed-in user's list loads and until the current workspace is chosen. */
  isLoading: boolean;
  currentWorkspace: Workspace | null;
  currentWorkspaceId: number | null;
  /** Makes `id` current, stores it (`currentWorkspaceId`) and refreshes all cached data. */
  selectWorkspace: (id: number) => void;
  /** A super admin, or role 'admin' in the current workspace (SPEC §6). */
  isAdmin: boolean;
}

const WorkspaceContext = createContext<WorkspaceValue | null>(null);

function parseId(value: string | null): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  return Number(value);
}

const fetchWorkspaces = getQueryFn<Workspace[]>({ on401: 'throw' });

/**
 * Current workspace rules of SPEC §4: when the list loads and nothing valid is selected, the
 * stored id is used if it is still in the list, otherwise the first workspace; an empty list
 * (e.g. the last workspace was deleted) clears the selection and the stored id.
 */
export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [selectedId, setSelectedId] = useState<number | null>(() =>
    parseId(readStoredWorkspaceId()),
  );

  const workspacesQuery = useQuery<Workspace[]>({
    queryKey: queryKeys.userWorkspaces(),
    enabled: user !== null,
    queryFn: async (context) => {
      try {
        return (await fetchWorkspaces(context)) ?? [];
      } catch (error) {
        if (isApiError(error, 403)) return []; // SPEC §6
        throw error;
      }
    },
  });
  const workspaces = useMemo(
    () => (user ? (workspacesQuery.data ?? []) : []),
    [user, workspacesQuery.data],
  );
  const loaded = user !== null && workspacesQuery.data !== undefined;

  const clearSelection = useCallback(() => {
    setSelectedId(null);
    writeStorage(STORAGE_KEYS.currentWorkspaceId, null);
  }, []);

  useEffect(() => {
    if (!loaded) return;
    if (workspaces.length === 0) {
      clearSelection();
      return;
    }
    if (selectedId !== null && workspaces.some((w) => w.id === selectedId)) return;
    const stored = parseId(readStoredWorkspaceId());
    const next = workspaces.find((w) => w.id === stored) ?? workspaces[0]!;
    setSelectedId(next.id);
    writeStorage(STORAGE_KEYS.currentWorkspaceId, String(next.id));
  }, [loaded, workspaces, selectedId, clearSelection]);

  const selectWorkspace = useCallback(
    (id: number) => {
      setSelectedId(id);
      writeStorage(STORAGE_KEYS.currentWorkspaceId, String(id));
      void queryClient.invalidateQueries();
    },
    [queryClient],
  );

  const currentWorkspace = workspaces.find((w) => w.id === selectedId) ?? null;
  const currentWorkspaceId = currentWorkspace?.id ?? null;
  const mutations = useWorkspaceMutations({
    currentWorkspaceId,
    currentUserId: user?.id ?? null,
    select: selectWorkspace,
    clear: clearSelection,
  });
  const value = useMemo<WorkspaceValue>(
    () => ({
      workspaces,
      // loading until the list is in and the current workspace chosen from it
      isLoading:
        user !== null &&
        (workspacesQuery.isPending || (workspaces.length > 0 && currentWorkspace === null)),
      currentWorkspace,
      currentWorkspaceId,
      selectWorkspace,
      isAdmin: isAdminOf(user, currentWorkspaceId),
      ...mutations,
    }),
    [
      workspaces,
      user,
      workspacesQuery.isPending,
      currentWorkspace,
      currentWorkspaceId,
      selectWorkspace,
      mutations,
    ],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): WorkspaceValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace must be used inside <WorkspaceProvider>');
  return value;
}
