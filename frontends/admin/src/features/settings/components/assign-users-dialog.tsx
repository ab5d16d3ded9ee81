import { useId, useState } from 'react';
import { ROLES, type Role, type User, type Workspace } from '@aict/contracts';
import {
  Button,
  Dialog,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  Label,
  Select,
  useTranslation,
  useWorkspace,
  TrashIcon,
} from '@aict/web-kit';
import styles from './settings.module.css';

/**
 * 'Assign Users' of a workspace: its members with their role (changed or removed at once),
 * and a user picker with a role; Assign waits until both are chosen.
 */
export function AssignUsersDialog({
  workspace,
  users,
  onClose,
}: {
  workspace: Workspace | null;
  users: User[];
  onClose: () => void;
}) {
  return (
    <Dialog
      open={workspace !== null}
      onOpenChange={(open) => !open && onClose()}
      className={styles.dialogWide}
    >
      {workspace && <AssignUsers key={workspace.id} workspace={workspace} users={users} />}
    </Dialog>
  );
}

function AssignUsers({ workspace, users }: { workspace: Workspace; users: User[] }) {
  const { addUserToWorkspace, updateUserRole, removeUserFromWorkspace } = useWorkspace();
  const { t } = useTranslation();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const userFieldId = useId();
  const roleFieldId = useId();
  const key = String(workspace.id);
  const members = users.filter((user) => user.workspaceRoles[key] !== undefined);
  const others = users.filter((user) => user.workspaceRoles[key] === undefined);

  const onAssign = () => {
    if (!userId || !role) return;
    addUserToWorkspace.mutate(
      { workspaceId: workspace.id, userId, role },
      {
        onSuccess: () => {
          setUserId('');
          setRole('');
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('admin.assign.title')}</DialogTitle>
        <DialogDescription>{t('admin.assign.text', { name: workspace.name })}</DialogDescription>
      </DialogHeader>

      <div className={styles.addRow}>
        <div className={styles.field}>
          <Label htmlFor={userFieldId}>{t('admin.assign.user')}</Label>
          <Select
            id={userFieldId}
            value={userId}
            onChange={(event) => setUserId(event.target.value)}
          >
            <option value="" disabled>
              {t('admin.assign.selectUser')}
            </option>
            {others.map((user) => (
              <option key={user.id} value={user.id}>
                {user.username} ({user.email})
              </option>
            ))}
          </Select>
        </div>
        <div className={styles.field}>
          <Label htmlFor={roleFieldId}>{t('admin.assign.role')}</Label>
          <Select
            id={roleFieldId}
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            <option value="" disabled>
              {t('admin.assign.selectRole')}
            </option>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {t(`admin.role_${value}`)}
              </option>
            ))}
          </Select>
        </div>
        <Button onClick={onAssign} disabled={!userId || !role || addUserToWorkspace.isPending}>
          {addUserToWorkspace.isPending ? t('admin.assign.assigning') : t('admin.assign.assign')}
        </Button>
      </div>

      <section className={styles.dialogSection} aria-labelledby={`${userFieldId}-members`}>
        <h3 id={`${userFieldId}-members`} className={styles.sectionTitle}>
          {t('admin.assign.members', { count: members.length })}
        </h3>
        {members.length === 0 ? (
          <p className={styles.muted}>{t('admin.assign.noMembers')}</p>
        ) : (
          <ul className={styles.list}>
            {members.map((member) => (
              <li key={member.id} className={styles.listItem}>
                <span className={styles.listText}>
                  <span className={styles.strong}>{member.username}</span>
                  <span className={styles.muted}>{member.email}</span>
                </span>
                <Select
                  aria-label={t('admin.assign.roleOf', { name: member.username })}
                  className={styles.roleSelect}
                  value={member.workspaceRoles[key]}
                  disabled={updateUserRole.isPending}
                  onChange={(event) =>
                    updateUserRole.mutate({
                      workspaceId: workspace.id,
                      userId: member.id,
                      role: event.target.value as Role,
                    })
                  }
                >
                  {ROLES.map((value) => (
                    <option key={value} value={value}>
                      {t(`admin.role_${value}`)}
                    </option>
                  ))}
                </Select>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t('admin.assign.removeFrom', {
                    user: member.username,
                    workspace: workspace.name,
                  })}
                  title={t('admin.remove')}
                  disabled={removeUserFromWorkspace.isPending}
                  onClick={() =>
                    removeUserFromWorkspace.mutate({ workspaceId: workspace.id, userId: member.id })
                  }
                >
                  <TrashIcon />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
