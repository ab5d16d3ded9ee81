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
        title: 'Cannot Delete Self',
        description: 'You cannot delete your own account.',
        variant: 'destructive',
      });
      return;
    }
    deleteUser.mutate(target.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'User Deleted', description: `${target.username} has been deleted.` });
      },
      onError: (error) => {
        setDeleting(null);
        toast({
          title: 'Failed to delete user',
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
          <CardTitle>Current Admins</CardTitle>
          <CardDescription>
            Who can manage {currentWorkspace ? currentWorkspace.name : 'this workspace'}: super
            admins and the workspace&apos;s admins.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {users.isPending ? (
            <Skeleton className={styles.skeletonRow} />
          ) : admins.length === 0 ? (
            <p className={styles.muted}>No admins to show.</p>
          ) : (
            <ul className={styles.list} aria-label="Current admins">
              {admins.map((admin) => (
                <li key={admin.id} className={styles.listItem}>
                  <span className={styles.listText}>
                    <span className={styles.strong}>{admin.username}</span>
                    <span className={styles.muted}>{admin.email}</span>
                  </span>
                  <Badge variant={admin.isSuperAdmin ? 'default' : 'secondary'}>
                    {admin.isSuperAdmin ? 'Super Admin' : 'Admin'}
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
          <CardTitle>Users</CardTitle>
          <CardDescription>Reset passwords, edit users and their workspaces.</CardDescription>
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
              Could not load the users: {errorMessage(users.error)}
            </p>
          ) : list.length === 0 ? (
            <p className={styles.empty}>No users yet.</p>
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
        title="Delete user?"
        description={`This permanently deletes ${deleting?.username ?? 'the user'} and removes them from every workspace. This action cannot be undone.`}
        pending={deleteUser.isPending}
        onConfirm={onConfirmDelete}
      />
    </div>
  );
}
