import { useId, useState, type FormEvent } from 'react';
import { ROLES, type Role, type User } from '@aict/contracts';
import {
  Button,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  EmailField,
  Label,
  Select,
  Skeleton,
  UsernameField,
  errorMessage,
  fieldErrors,
  toast,
  useSession,
  useTranslation,
  useWorkspace,
  TrashIcon,
} from '@aict/web-kit';
import { useAssignableWorkspaces } from '../api/get-all-workspaces';
import { useUserWorkspaces } from '../api/get-user-workspaces';
import { UpdateUserBody, useUpdateUser } from '../api/update-user';
import { useWorkspaceNames } from './use-workspace-names';
import styles from './settings.module.css';

interface Assignment {
  workspaceId: number;
  role: Role;
}

/**
 * 'Edit User': username, e-mail and the workspace assignments (change a role, remove one, add
 * one). Changes are kept until Save; a workspace admin sees and edits only the current
 * workspace's assignment.
 */
export function EditUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => !open && !saving && onClose()}
      className={styles.dialogWide}
    >
      {user && <EditUserForm key={user.id} user={user} onClose={onClose} onSaving={setSaving} />}
    </Dialog>
  );
}

function EditUserForm({
  user,
  onClose,
  onSaving,
}: {
  user: User;
  onClose: () => void;
  onSaving: (saving: boolean) => void;
}) {
  const { user: me } = useSession();
  const { t } = useTranslation();
  const { currentWorkspaceId, addUserToWorkspace, updateUserRole, removeUserFromWorkspace } =
    useWorkspace();
  const superAdmin = me?.isSuperAdmin === true;
  const memberships = useUserWorkspaces(user.id);
  const { workspaces: assignable } = useAssignableWorkspaces();
  const workspaceName = useWorkspaceNames();
  const updateUser = useUpdateUser();

  const [username, setUsername] = useState(user.username);
  const [email, setEmail] = useState(user.email);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [edited, setEdited] = useState<Assignment[] | null>(null); // null: as loaded
  const [newWorkspace, setNewWorkspace] = useState('');
  const [newRole, setNewRole] = useState<Role>('user');
  const [busy, setBusy] = useState(false);
  const addWorkspaceId = useId();
  const addRoleId = useId();

  const visible = (workspaceId: number) => superAdmin || workspaceId === currentWorkspaceId;
  const original: Assignment[] = (memberships.data ?? [])
    .filter((item) => visible(item.workspaceId))
    .map(({ workspaceId, role }) => ({ workspaceId, role }));
  const assignments = edited ?? original;
  const unassigned = assignable.filter(
    (workspace) =>
      visible(workspace.id) && !assignments.some((a) => a.workspaceId === workspace.id),
  );

  const edit = (next: Assignment[]) => setEdited(next);
  const addAssignment = () => {
    if (!newWorkspace) return;
    edit([...assignments, { workspaceId: Number(newWorkspace), role: newRole }]);
    setNewWorkspace('');
    setNewRole('user');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = UpdateUserBody.safeParse({ username, email });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    const profileChanged =
      parsed.data.username !== user.username || parsed.data.email !== user.email;
    const added = assignments.filter((a) => !original.some((o) => o.workspaceId === a.workspaceId));
    const removed = original.filter(
      (o) => !assignments.some((a) => a.workspaceId === o.workspaceId),
    );
    const changed = assignments.filter((a) =>
      original.some((o) => o.workspaceId === a.workspaceId && o.role !== a.role),
    );

    setBusy(true);
    onSaving(true);
    try {
      if (profileChanged) {
        const saved = await updateUser
          .mutateAsync({ id: user.id, ...parsed.data })
          .then(() => true)
          .catch((error: unknown) => {
            toast({
              title: t('admin.editUser.failed'),
              description: errorMessage(error),
              variant: 'destructive',
            });
            return false;
          });
        if (!saved) return;
      }

      const failures: string[] = [];
      const run = (label: string, call: () => Promise<unknown>) =>
        call().catch((error: unknown) => failures.push(`${label}: ${errorMessage(error)}`));
      for (const a of added)
        await run(workspaceName(a.workspaceId), () =>
          addUserToWorkspace.mutateAsync({ ...a, userId: user.id, notify: false }),
        );
      for (const a of changed)
        await run(workspaceName(a.workspaceId), () =>
          updateUserRole.mutateAsync({ ...a, userId: user.id, notify: false }),
        );
      for (const a of removed)
        await run(workspaceName(a.workspaceId), () =>
          removeUserFromWorkspace.mutateAsync({
            workspaceId: a.workspaceId,
            userId: user.id,
            notify: false,
          }),
        );

      const name = parsed.data.username;
      if (failures.length > 0) {
        setEdited(null); // show what the server has now
        toast({
          title: t('admin.editUser.assignmentError'),
          description: failures.join('; '),
          variant: 'destructive',
        });
        return;
      }
      if (added.length > 0 && changed.length === 0 && removed.length === 0) {
        toast({
          title: t('admin.editUser.assigned'),
          description: t('admin.editUser.assignedText', {
            name,
            workspaces: added.map((a) => workspaceName(a.workspaceId)).join(', '),
          }),
        });
      } else if (added.length + changed.length + removed.length > 0) {
        toast({
          title: t('admin.editUser.workspacesUpdated'),
          description: t('admin.editUser.workspacesUpdatedText', { name }),
        });
      } else {
        toast({
          title: t('admin.editUser.updated'),
          description: t('admin.editUser.updatedText', { name }),
        });
      }
      onClose();
    } finally {
      setBusy(false);
      onSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <DialogHeader>
        <DialogTitle>{t('admin.editUser.title')}</DialogTitle>
        <DialogDescription>{t('admin.editUser.text', { name: user.username })}</DialogDescription>
      </DialogHeader>
      <div className={styles.grid}>
        <UsernameField
          autoComplete="off"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          error={errors.username}
        />
        <EmailField
          label={t('admin.users.email')}
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
      </div>

      <section className={styles.dialogSection} aria-labelledby={`${addWorkspaceId}-title`}>
        <h3 id={`${addWorkspaceId}-title`} className={styles.sectionTitle}>
          {t('admin.editUser.assignments')}
        </h3>
        {memberships.isPending ? (
          <Skeleton className={styles.skeletonRow} />
        ) : memberships.error ? (
          <p className={styles.error} role="alert">
            {t('admin.editUser.loadFailed', { message: errorMessage(memberships.error) })}
          </p>
        ) : assignments.length === 0 ? (
          <p className={styles.muted}>{t('admin.editUser.noAssignments')}</p>
        ) : (
          <ul className={styles.list}>
            {assignments.map((assignment) => {
              const name = workspaceName(assignment.workspaceId);
              return (
                <li key={assignment.workspaceId} className={styles.listItem}>
                  <span className={`${styles.listText} ${styles.strong}`}>{name}</span>
                  <Select
                    aria-label={t('admin.editUser.roleIn', { name })}
                    className={styles.roleSelect}
                    value={assignment.role}
                    onChange={(event) =>
                      edit(
                        assignments.map((a) =>
                          a.workspaceId === assignment.workspaceId
                            ? { ...a, role: event.target.value as Role }
                            : a,
                        ),
                      )
                    }
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {t(`admin.role_${role}`)}
                      </option>
                    ))}
                  </Select>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('admin.editUser.removeFrom', { name })}
                    title={t('admin.remove')}
                    onClick={() =>
                      edit(assignments.filter((a) => a.workspaceId !== assignment.workspaceId))
                    }
                  >
                    <TrashIcon />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        {!memberships.isPending && !memberships.error && unassigned.length > 0 && (
          <div className={styles.addRow}>
            <div className={styles.field}>
              <Label htmlFor={addWorkspaceId}>{t('admin.editUser.addTo')}</Label>
              <Select
                id={addWorkspaceId}
                value={newWorkspace}
                onChange={(event) => setNewWorkspace(event.target.value)}
              >
                <option value="" disabled>
                  {t('admin.editUser.selectWorkspace')}
                </option>
                {unassigned.map((workspace) => (
                  <option key={workspace.id} value={String(workspace.id)}>
                    {workspace.name}
                  </option>
                ))}
              </Select>
            </div>
            <div className={styles.field}>
              <Label htmlFor={addRoleId}>{t('admin.users.role')}</Label>
              <Select
                id={addRoleId}
                value={newRole}
                onChange={(event) => setNewRole(event.target.value as Role)}
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {t(`admin.role_${role}`)}
                  </option>
                ))}
              </Select>
            </div>
            <Button variant="secondary" onClick={addAssignment} disabled={!newWorkspace}>
              {t('admin.editUser.add')}
            </Button>
          </div>
        )}
      </section>

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={busy}>
          {t('admin.cancel')}
        </Button>
        <Button type="submit" disabled={busy || memberships.isPending}>
          {busy ? t('admin.saving') : t('admin.saveChanges')}
        </Button>
      </DialogFooter>
    </form>
  );
}
