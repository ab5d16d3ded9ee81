import { useRef } from 'react';
import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { Membership, Workspace } from '@aict/contracts';
import { errorMessage } from '../api/http';
import { i18n } from '../i18n/i18n';
import { queryKeys, urlFilter } from '../api/queries';
import {
  workspaceCalls,
  type MemberInput,
  type MemberRoleInput,
  type WorkspaceInput,
} from '../api/workspace-calls';
import { toast } from '../ui/toast';

/**
 * `notify: false` leaves the success and error toasts to the caller (e.g. the Users tab shows
 * 'Created User but Failed to Assign Workspace' instead of the generic error).
 */
export interface Notify {
  notify?: boolean;
}

export interface WorkspaceMutations {
  /** POST /api/workspaces; toasts 'Workspace created' / 'Error creating workspace'. */
  createWorkspace: UseMutationResult<Workspace, Error, WorkspaceInput & Notify>;
  /** PATCH /api/workspaces/{id}; toasts 'Workspace updated' / 'Error updating workspace'. */
  updateWorkspace: UseMutationResult<Workspace, Error, WorkspaceInput & { id: number } & Notify>;
  /**
   * DELETE /api/workspaces/{id}; toasts 'Workspace deleted' / 'Error deleting workspace'. When
   * the current workspace is deleted, the first remaining one becomes current, or the
   * selection and the stored id are cleared when none remain (SPEC §4).
   */
  deleteWorkspace: UseMutationResult<void, Error, number>;
  /** POST /api/workspaces/{id}/users; 'User Added to Workspace' / 'Error adding user to workspace'. */
  addUserToWorkspace: UseMutationResult<Membership, Error, MemberRoleInput & Notify>;
  /** DELETE …/users/{userId}; 'User Removed from Workspace' / 'Error removing user from workspace'. */
  removeUserFromWorkspace: UseMutationResult<void, Error, MemberInput & Notify>;
  /** PATCH …/users/{userId}; 'Role Updated' / 'Error updating user role'. */
  updateUserRole: UseMutationResult<Membership, Error, MemberRoleInput & Notify>;
}

const failed = (title: string, error: unknown) =>
  toast({ title, description: errorMessage(error), variant: 'destructive' });

/**
 * The workspace provider's mutations (SPEC §6, §7 "Workspaces", §8 texts). `selection` is
 * the provider's current workspace and its select/clear functions.
 */
export function useWorkspaceMutations(selection: {
  currentWorkspaceId: number | null;
  currentUserId: string | null;
  select: (id: number) => void;
  clear: () => void;
}): WorkspaceMutations {
  const queryClient = useQueryClient();
  // Callbacks run after the call returns: read the selection as it is then, not as it was.
  const latest = useRef(selection);
  latest.current = selection;

  const refreshWorkspaceLists = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.userWorkspaces() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.workspaces() }),
    ]);

  /** After a membership change: the cached user lists, and the session when it is ours. */
  const refreshMembers = (userId: string) => {
    const refreshes = [queryClient.invalidateQueries(urlFilter('/api/users'))];
    if (userId === latest.current.currentUserId) {
      refreshes.push(
        queryClient.invalidateQueries({ queryKey: queryKeys.user() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.userWorkspaces() }),
      );
    }
    return Promise.all(refreshes);
  };

  const createWorkspace = useMutation<Workspace, Error, WorkspaceInput & Notify>({
    mutationFn: ({ notify: _notify, ...body }) => workspaceCalls.create(body),
    onSuccess: (workspace, { notify = true }) => {
      if (notify)
        toast({
          title: i18n.t('kit.workspaceCreated'),
          description: i18n.t('kit.workspaceCreatedText', { name: workspace.name }),
        });
      return refreshWorkspaceLists();
    },
    onError: (error, { notify = true }) =>
      notify && void failed(i18n.t('kit.errorCreatingWorkspace'), error),
  });

  const updateWorkspace = useMutation<Workspace, Error, WorkspaceInput & { id: number } & Notify>({
    mutationFn: ({ notify: _notify, ...body }) => workspaceCalls.update(body),
    onSuccess: (workspace, { notify = true }) => {
      if (notify)
        toast({
          title: i18n.t('kit.workspaceUpdated'),
          description: i18n.t('kit.workspaceUpdatedText', { name: workspace.name }),
        });
      return refreshWorkspaceLists();
    },
    onError: (error, { notify = true }) =>
      notify && void failed(i18n.t('kit.errorUpdatingWorkspace'), error),
  });

  const deleteWorkspace = useMutation<void, Error, number>({
    mutationFn: (id) => workspaceCalls.remove(id),
    onSuccess: (_, id) => {
      const remaining = (
        queryClient.getQueryData<Workspace[]>(queryKeys.userWorkspaces()) ?? []
      ).filter((workspace) => workspace.id !== id);
      queryClient.setQueryData<Workspace[]>(queryKeys.userWorkspaces(), remaining);
      if (latest.current.currentWorkspaceId === id) {
        if (remaining[0]) latest.current.select(remaining[0].id);
        else latest.current.clear();
      }
      toast({
        title: i18n.t('kit.workspaceDeleted'),
        description: i18n.t('kit.workspaceDeletedText'),
      });
      return Promise.all([
        refreshWorkspaceLists(),
        queryClient.invalidateQueries(urlFilter('/api/users')),
        queryClient.invalidateQueries({ queryKey: queryKeys.user() }),
      ]).then(() => undefined);
    },
    onError: (error) => void failed(i18n.t('kit.errorDeletingWorkspace'), error),
  });

  const addUserToWorkspace = useMutation<Membership, Error, MemberRoleInput & Notify>({
    mutationFn: ({ notify: _notify, ...member }) => workspaceCalls.addMember(member),
    onSuccess: (_, { notify = true, userId }) => {
      if (notify)
        toast({
          title: i18n.t('kit.userAddedToWorkspace'),
          description: i18n.t('kit.userAddedToWorkspaceText'),
        });
      return refreshMembers(userId);
    },
    onError: (error, { notify = true }) =>
      notify && void failed(i18n.t('kit.errorAddingUser'), error),
  });

  const removeUserFromWorkspace = useMutation<void, Error, MemberInput & Notify>({
    mutationFn: ({ notify: _notify, ...member }) => workspaceCalls.removeMember(member),
    onSuccess: (_, { notify = true, userId }) => {
      if (notify)
        toast({
          title: i18n.t('kit.userRemovedFromWorkspace'),
          description: i18n.t('kit.userRemovedFromWorkspaceText'),
        });
      return refreshMembers(userId).then(() => undefined);
    },
    onError: (error, { notify = true }) =>
      notify && void failed(i18n.t('kit.errorRemovingUser'), error),
  });

  const updateUserRole = useMutation<Membership, Error, MemberRoleInput & Notify>({
    mutationFn: ({ notify: _notify, ...member }) => workspaceCalls.updateMemberRole(member),
    onSuccess: (_, { notify = true, userId, role }) => {
      if (notify)
        toast({
          title: i18n.t('kit.roleUpdated'),
          description: i18n.t('kit.roleUpdatedText', { role: i18n.t(`admin.roleLower_${role}`) }),
        });
      return refreshMembers(userId);
    },
    onError: (error, { notify = true }) =>
      notify && void failed(i18n.t('kit.errorUpdatingRole'), error),
  });

  return {
    createWorkspace,
    updateWorkspace,
    deleteWorkspace,
    addUserToWorkspace,
    removeUserFromWorkspace,
    updateUserRole,
  };
}
