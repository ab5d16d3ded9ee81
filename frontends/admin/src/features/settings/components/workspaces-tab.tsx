import { useState } from 'react';
import { DEFAULT_WORKSPACE_ID, type Workspace } from '@aict/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardTitle,
  Skeleton,
  errorMessage,
  toast,
  useWorkspace,
} from '@aict/web-kit';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { EditIcon, PlusIcon, TrashIcon, UsersIcon } from '../../../lib/icons';
import { useAllWorkspaces } from '../api/get-all-workspaces';
import { useUsers } from '../api/get-users';
import { AssignUsersDialog } from './assign-users-dialog';
import { WorkspaceDialog, type WorkspaceDialogMode } from './workspace-dialog';
import { WorkspaceLogo } from './workspace-logo';
import styles from './settings.module.css';

/** The Workspaces tab (super admins): every workspace, its logo, members and actions. */
export function WorkspacesTab() {
  const workspaces = useAllWorkspaces();
  const users = useUsers();
  const { deleteWorkspace } = useWorkspace();
  const [dialog, setDialog] = useState<WorkspaceDialogMode | null>(null);
  const [assigning, setAssigning] = useState<Workspace | null>(null);
  const [deleting, setDeleting] = useState<Workspace | null>(null);

  const memberCount = (workspace: Workspace) =>
    (users.data ?? []).filter((user) => user.workspaceRoles[String(workspace.id)] !== undefined)
      .length;

  const askDelete = (workspace: Workspace) => {
    if (workspace.id === DEFAULT_WORKSPACE_ID) {
      toast({
        title: 'Cannot Delete Default Workspace',
        description: 'The default workspace cannot be deleted.',
        variant: 'destructive',
      });
      return;
    }
    setDeleting(workspace);
  };

  const list = workspaces.data ?? [];
  return (
    <Card>
      <div className={styles.cardHeaderRow}>
        <div>
          <CardTitle>Workspaces</CardTitle>
          <CardDescription>Create, edit and delete workspaces; assign their users.</CardDescription>
        </div>
        <Button onClick={() => setDialog({ kind: 'create' })}>
          <PlusIcon />
          Create Workspace
        </Button>
      </div>
      <CardContent>
        {workspaces.isPending ? (
          <>
            <Skeleton className={styles.skeletonRow} />
            <Skeleton className={styles.skeletonRow} />
          </>
        ) : workspaces.error ? (
          <p className={styles.error} role="alert">
            Could not load the workspaces: {errorMessage(workspaces.error)}
          </p>
        ) : list.length === 0 ? (
          <p className={styles.empty}>No workspaces yet.</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption className="wk-sr-only">Workspaces</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Logo</th>
                  <th scope="col">Users</th>
                  <th scope="col" className={styles.actionsCell}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((workspace) => {
                  const count = memberCount(workspace);
                  return (
                    <tr key={workspace.id}>
                      <td data-label="Name">
                        <span className={styles.strong}>{workspace.name}</span>
                      </td>
                      <td data-label="Description">
                        {workspace.description || <span className={styles.muted}>None</span>}
                      </td>
                      <td data-label="Logo">
                        <WorkspaceLogo workspace={workspace} />
                      </td>
                      <td data-label="Users">
                        {users.isPending ? '…' : `${count} ${count === 1 ? 'user' : 'users'}`}
                      </td>
                      <td data-label="Actions" className={styles.actionsCell}>
                        <div className={styles.actions}>
                          <Button
                            variant="outline"
                            size="sm"
                            aria-label={`Assign users to ${workspace.name}`}
                            onClick={() => setAssigning(workspace)}
                          >
                            <UsersIcon />
                            <span>Assign Users</span>
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Edit ${workspace.name}`}
                            title="Edit"
                            onClick={() => setDialog({ kind: 'edit', workspace })}
                          >
                            <EditIcon />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Delete ${workspace.name}`}
                            title="Delete"
                            onClick={() => askDelete(workspace)}
                          >
                            <TrashIcon />
                          </Button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>

      <WorkspaceDialog mode={dialog} onClose={() => setDialog(null)} />
      <AssignUsersDialog
        workspace={assigning}
        users={users.data ?? []}
        onClose={() => setAssigning(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete workspace?"
        description={`This permanently deletes ${deleting?.name ?? 'the workspace'} with its memberships and settings. This action cannot be undone.`}
        pending={deleteWorkspace.isPending}
        onConfirm={() => {
          if (deleting) deleteWorkspace.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </Card>
  );
}
