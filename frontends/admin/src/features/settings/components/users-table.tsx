import type { User } from '@aict/contracts';
import { Badge, Button, useTranslation, EditIcon, KeyIcon, TrashIcon } from '@aict/web-kit';
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
  const { t } = useTranslation();
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="wk-sr-only">{t('admin.users.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.users.username')}</th>
            <th scope="col">{t('admin.users.email')}</th>
            <th scope="col">{t('admin.users.role')}</th>
            <th scope="col">{t('admin.users.workspaces')}</th>
            <th scope="col" className={styles.actionsCell}>
              {t('admin.users.actions')}
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const roles = Object.entries(user.workspaceRoles);
            return (
              <tr key={user.id}>
                <td data-label={t('admin.users.username')}>
                  <span>
                    <span className={styles.strong}>{user.username}</span>
                    {user.id === currentUserId && (
                      <span className={styles.muted}> {t('admin.users.you')}</span>
                    )}
                  </span>
                </td>
                <td data-label={t('admin.users.email')} className={styles.emailCell}>
                  {user.email}
                </td>
                <td data-label={t('admin.users.role')}>
                  <Badge
                    variant={user.isSuperAdmin ? 'default' : 'secondary'}
                    className={styles.nowrap}
                  >
                    {user.isSuperAdmin ? t('admin.users.superAdmin') : t('admin.users.user')}
                  </Badge>
                </td>
                <td data-label={t('admin.users.workspaces')}>
                  {roles.length === 0 ? (
                    <span className={styles.muted}>{t('admin.none')}</span>
                  ) : (
                    <ul
                      className={styles.chips}
                      aria-label={t('admin.users.workspacesOf', { name: user.username })}
                    >
                      {roles.map(([workspaceId, role]) => (
                        <li key={workspaceId}>
                          <Badge variant="outline" className={styles.chip}>
                            {workspaceName(workspaceId)} · {t(`admin.roleLower_${role}`)}
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td data-label={t('admin.users.actions')} className={styles.actionsCell}>
                  <div className={styles.actions}>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={t('admin.users.resetPasswordOf', { name: user.username })}
                      title={t('admin.users.resetPassword')}
                      onClick={() => onResetPassword(user)}
                    >
                      <KeyIcon />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={t('admin.users.editName', { name: user.username })}
                      title={t('admin.edit')}
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
                        aria-label={t('admin.users.deleteName', { name: user.username })}
                        title={t('admin.delete')}
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
