import { useState } from 'react';
import type { User } from '@aict/contracts';
import {
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Skeleton,
  errorMessage,
  toast,
  useSession,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';
import { AddUserForm } from './add-user-form';
import { EditUserDialog } from './edit-user-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { useWorkspaceNames } from './use-workspace-names';
import { UsersTable } from './users-table';
import styles from './settings.module.css';

/** The Users tab: current admins (read-only), 'Add New User', the users table and its dialogs. */
export function UsersTab() {
  const { user: me } = useSession();
  const { t } = useTranslation();
  const { currentWorkspace } = useWorkspace();
  const users = useUsers();
  const workspaceName = useWorkspaceNames();
  const deleteUser = useDeleteUser();
  const [editing, setEditing] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  const list = users.data ?? [];
  const admins = list.filter(
    (user) =>
      user.isSuperAdmin ||
      (currentWorkspace !== null && user.workspaceRoles[String(currentWorkspace.id)] === 'admin'),
  );

  const onConfirmDelete = () => {
    const target = deleting;
    if (!target) return;
    if (target.id === me?.id) {
      setDeleting(null);
      toast({
        title: t('admin.users.cannotDeleteSelf'),
        description: t('admin.users.cannotDeleteSelfText'),
        variant: 'destructive',
      });
      return;
    }
    deleteUser.mutate(target.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({
          title: t('admin.users.deleted'),
          description: t('admin.users.deletedText', { name: target.username }),
        });
      },
      onError: (error) => {
        setDeleting(null);
        toast({
          title: t('admin.users.deleteFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <div className={styles.stack}>
      <Card>
        <CardHeader>
          <CardTitle>{t('admin.users.adminsTitle')}</CardTitle>
          <CardDescription>
            {t('admin.users.adminsText', {
              name: currentWorkspace ? currentWorkspace.name : t('admin.users.thisWorkspace'),
            })}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {users.isPending ? (
            <Skeleton className={styles.skeletonRow} />
          ) : admins.length === 0 ? (
            <p className={styles.muted}>{t('admin.users.noAdmins')}</p>
          ) : (
            <ul className={styles.list} aria-label={t('admin.users.adminsList')}>
              {admins.map((admin) => (
                <li key={admin.id} className={styles.listItem}>
                  <span className={styles.listText}>
                    <span className={styles.strong}>{admin.username}</span>
                    <span className={styles.muted}>{admin.email}</span>
                  </span>
                  <Badge variant={admin.isSuperAdmin ? 'default' : 'secondary'}>
                    {admin.isSuperAdmin ? t('admin.users.superAdmin') : t('admin.users.admin')}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <AddUserForm />

      <Card>
        <CardHeader>
          <CardTitle>{t('admin.users.title')}</CardTitle>
          <CardDescription>{t('admin.users.text')}</CardDescription>
        </CardHeader>
        <CardContent>
          {users.isPending ? (
            <>
              <Skeleton className={styles.skeletonRow} />
              <Skeleton className={styles.skeletonRow} />
              <Skeleton className={styles.skeletonRow} />
            </>
          ) : users.error ? (
            <p className={styles.error} role="alert">
              {t('admin.users.loadFailed', { message: errorMessage(users.error) })}
            </p>
          ) : list.length === 0 ? (
            <p className={styles.empty}>{t('admin.users.empty')}</p>
          ) : (
            <UsersTable
              users={list}
              currentUserId={me?.id ?? null}
              workspaceName={workspaceName}
              onResetPassword={setResetting}
              onEdit={setEditing}
              onDelete={setDeleting}
            />
          )}
        </CardContent>
      </Card>

      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('admin.users.confirmTitle')}
        description={t('admin.users.confirmText', { name: deleting?.username ?? '' })}
        pending={deleteUser.isPending}
        onConfirm={onConfirmDelete}
      />
    </div>
  );
}
