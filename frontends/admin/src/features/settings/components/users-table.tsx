import type { User } from '@aict/contracts';
import { Badge, Button } from '@aict/web-kit';
import { EditIcon, KeyIcon, TrashIcon } from '../../../lib/icons';
import styles from './settings.module.css';

/**
 * Every user the admin may see: username, e-mail, 'Super Admin' or 'User', a chip per
 * workspace with the role there, and the actions reset password, edit and delete (never
 * delete for oneself).
 */
export function UsersTable({
  users,
  currentUserId,
  workspaceName,
  onResetPassword,
  onEdit,
  onDelete,
}: {
  users: User[];
  currentUserId: string | null;
  workspaceName: (workspaceId: string) => string;
  onResetPassword: (user: User) => void;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
}) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="wk-sr-only">Users</caption>
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Workspaces</th>
            <th scope="col" className={styles.actionsCell}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const roles = Object.entries(user.workspaceRoles);
            return (
              <tr key={user.id}>
                <td data-label="Username">
                  <span>
                    <span className={styles.strong}>{user.username}</span>
                    {user.id === currentUserId && <span className={styles.muted}> (you)</span>}
                  </span>
                </td>
                <td data-label="Email" className={styles.emailCell}>
                  {user.email}
                </td>
                <td data-label="Role">
                  <Badge
                    variant={user.isSuperAdmin ? 'default' : 'secondary'}
                    className={styles.nowrap}
                  >
                    {user.isSuperAdmin ? 'Super Admin' : 'User'}
                  </Badge>
                </td>
                <td data-label="Workspaces">
                  {roles.length === 0 ? (
                    <span className={styles.muted}>None</span>
                  ) : (
                    <ul className={styles.chips} aria-label={`Workspaces of ${user.username}`}>
                      {roles.map(([workspaceId, role]) => (
                        <li key={workspaceId}>
                          <Badge variant="outline" className={styles.chip}>
                            {workspaceName(workspaceId)} · {role}
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td data-label="Actions" className={styles.actionsCell}>
                  <div className={styles.actions}>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Reset password of ${user.username}`}
                      title="Reset password"
                      onClick={() => onResetPassword(user)}
                    >
                      <KeyIcon />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Edit ${user.username}`}
                      title="Edit"
                      onClick={() => onEdit(user)}
                    >
                      <EditIcon />
                    </Button>
                    {user.id === currentUserId ? (
                      // no delete for oneself: keep the other rows' buttons in line
                      <span className={styles.iconSpacer} aria-hidden="true" />
                    ) : (
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Delete ${user.username}`}
                        title="Delete"
                        onClick={() => onDelete(user)}
                      >
                        <TrashIcon />
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
