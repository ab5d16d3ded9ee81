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
  useWorkspace,
} from '@aict/web-kit';
import { TrashIcon } from '../../../lib/icons';
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
        <DialogTitle>Assign Users</DialogTitle>
        <DialogDescription>
          Add users to {workspace.name} and manage their roles there.
        </DialogDescription>
      </DialogHeader>

      <div className={styles.addRow}>
        <div className={styles.field}>
          <Label htmlFor={userFieldId}>User</Label>
          <Select
            id={userFieldId}
            value={userId}
            onChange={(event) => setUserId(event.target.value)}
          >
            <option value="" disabled>
              Select user
            </option>
            {others.map((user) => (
              <option key={user.id} value={user.id}>
                {user.username} ({user.email})
              </option>
            ))}
          </Select>
        </div>
        <div className={styles.field}>
          <Label htmlFor={roleFieldId}>Role</Label>
          <Select
            id={roleFieldId}
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            <option value="" disabled>
              Select role
            </option>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {value === 'admin' ? 'Admin' : 'User'}
              </option>
            ))}
          </Select>
        </div>
        <Button onClick={onAssign} disabled={!userId || !role || addUserToWorkspace.isPending}>
          {addUserToWorkspace.isPending ? 'Assigning...' : 'Assign'}
        </Button>
      </div>

      <section className={styles.dialogSection} aria-labelledby={`${userFieldId}-members`}>
        <h3 id={`${userFieldId}-members`} className={styles.sectionTitle}>
          Members ({members.length})
        </h3>
        {members.length === 0 ? (
          <p className={styles.muted}>No users are assigned to this workspace yet.</p>
        ) : (
          <ul className={styles.list}>
            {members.map((member) => (
              <li key={member.id} className={styles.listItem}>
                <span className={styles.listText}>
                  <span className={styles.strong}>{member.username}</span>
                  <span className={styles.muted}>{member.email}</span>
                </span>
                <Select
                  aria-label={`Role of ${member.username}`}
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
                      {value === 'admin' ? 'Admin' : 'User'}
                    </option>
                  ))}
                </Select>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${member.username} from ${workspace.name}`}
                  title="Remove"
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
