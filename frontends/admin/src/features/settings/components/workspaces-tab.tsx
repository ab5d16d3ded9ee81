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
  useTranslation,
  useWorkspace,
  EditIcon,
  PlusIcon,
  TrashIcon,
  UsersIcon,
} from '@aict/web-kit';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { useAllWorkspaces } from '../api/get-all-workspaces';
import { useUsers } from '../api/get-users';
import { AssignUsersDialog } from './assign-users-dialog';
import { WorkspaceDialog, type WorkspaceDialogMode } from './workspace-dialog';
import { WorkspaceLogo } from './workspace-logo';
import styles from './settings.module.css';

/** The Workspaces tab (super admins): every workspace, its logo, members and actions. */
export function WorkspacesTab() {
  const workspaces = useAllWorkspaces();
  const { t } = useTranslation();
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
        title: t('admin.workspaces.cannotDeleteDefault'),
        description: t('admin.workspaces.cannotDeleteDefaultText'),
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
          <CardTitle>{t('admin.workspaces.title')}</CardTitle>
          <CardDescription>{t('admin.workspaces.text')}</CardDescription>
        </div>
        <Button onClick={() => setDialog({ kind: 'create' })}>
          <PlusIcon />
          {t('admin.workspaces.create')}
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
            {t('admin.workspaces.loadFailed', { message: errorMessage(workspaces.error) })}
          </p>
        ) : list.length === 0 ? (
          <p className={styles.empty}>{t('admin.workspaces.empty')}</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption className="wk-sr-only">{t('admin.workspaces.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.workspaces.name')}</th>
                  <th scope="col">{t('admin.workspaces.description')}</th>
                  <th scope="col">{t('admin.workspaces.logo')}</th>
                  <th scope="col">{t('admin.workspaces.users')}</th>
                  <th scope="col" className={styles.actionsCell}>
                    {t('admin.workspaces.actions')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((workspace) => {
                  const count = memberCount(workspace);
                  return (
                    <tr key={workspace.id}>
                      <td data-label={t('admin.workspaces.name')}>
                        <span className={styles.strong}>{workspace.name}</span>
                      </td>
                      <td data-label={t('admin.workspaces.description')}>
                        {workspace.description || (
                          <span className={styles.muted}>{t('admin.none')}</span>
                        )}
                      </td>
                      <td data-label={t('admin.workspaces.logo')}>
                        <WorkspaceLogo workspace={workspace} />
                      </td>
                      <td data-label={t('admin.workspaces.users')}>
                        {users.isPending ? '…' : t('admin.workspaces.userCount', { count })}
                      </td>
                      <td data-label={t('admin.workspaces.actions')} className={styles.actionsCell}>
                        <div className={styles.actions}>
                          <Button
                            variant="outline"
                            size="sm"
                            aria-label={t('admin.workspaces.assignUsersTo', {
                              name: workspace.name,
                            })}
                            onClick={() => setAssigning(workspace)}
                          >
                            <UsersIcon />
                            <span>{t('admin.workspaces.assignUsers')}</span>
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={t('admin.workspaces.editName', { name: workspace.name })}
                            title={t('admin.edit')}
                            onClick={() => setDialog({ kind: 'edit', workspace })}
                          >
                            <EditIcon />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={t('admin.workspaces.deleteName', { name: workspace.name })}
                            title={t('admin.delete')}
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
        title={t('admin.workspaces.confirmTitle')}
        description={t('admin.workspaces.confirmText', { name: deleting?.name ?? '' })}
        pending={deleteWorkspace.isPending}
        onConfirm={() => {
          if (deleting) deleteWorkspace.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </Card>
  );
}
