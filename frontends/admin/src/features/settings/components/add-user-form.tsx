import { useId, useState, type FormEvent } from 'react';
import { ROLES, type Role } from '@aict/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  EmailField,
  Label,
  PasswordField,
  Select,
  UsernameField,
  errorMessage,
  fieldErrors,
  toast,
  useSession,
  useTranslation,
  useWorkspace,
  PlusIcon,
} from '@aict/web-kit';
import { CreateUserBody, useCreateUser } from '../api/create-user';
import { useAssignableWorkspaces } from '../api/get-all-workspaces';
import styles from './settings.module.css';

const EMPTY = { username: '', email: '', password: '' };

/**
 * 'Add New User': username, e-mail and password (the button stays disabled until all three are
 * filled). A super admin also picks a workspace (or None) and a role; a workspace admin's new
 * user joins the current workspace as a user. The user is created first, then assigned
 * (POST /api/workspaces/{id}/users); when only the second call fails the toast says so.
 */
export function AddUserForm() {
  const { user: me } = useSession();
  const { t } = useTranslation();
  const { currentWorkspace, addUserToWorkspace } = useWorkspace();
  const { workspaces } = useAssignableWorkspaces();
  const create = useCreateUser();
  const superAdmin = me?.isSuperAdmin === true;

  const [values, setValues] = useState(EMPTY);
  const [workspaceChoice, setWorkspaceChoice] = useState(''); // '' = None
  const [role, setRole] = useState<Role>('user');
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const workspaceId = useId();
  const roleId = useId();

  const filled = Boolean(values.username.trim() && values.email.trim() && values.password);
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const target = superAdmin
    ? (workspaces.find((w) => String(w.id) === workspaceChoice) ?? null)
    : currentWorkspace;
  const targetRole: Role = superAdmin ? role : 'user';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!filled) {
      toast({
        title: t('admin.addUser.missingFields'),
        description: t('admin.addUser.missingFieldsText'),
        variant: 'destructive',
      });
      return;
    }
    const parsed = CreateUserBody.safeParse({
      ...values,
      workspaceId: target?.id ?? null,
      role: targetRole,
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const created = await create.mutateAsync(parsed.data).catch((error: unknown) => {
        toast({
          title: t('admin.addUser.failed'),
          description: errorMessage(error),
          variant: 'destructive',
        });
        return null;
      });
      if (!created) return;
      setValues(EMPTY);
      if (!target) {
        toast({
          title: t('admin.addUser.created'),
          description: t('admin.addUser.createdText', { name: created.username }),
        });
        return;
      }
      try {
        await addUserToWorkspace.mutateAsync({
          workspaceId: target.id,
          userId: created.id,
          role: targetRole,
          notify: false,
        });
        toast({
          title: t('admin.addUser.created'),
          description: t('admin.addUser.createdAssignedText', {
            name: created.username,
            workspace: target.name,
            role: t(`admin.roleLower_${targetRole}`),
          }),
        });
      } catch (error) {
        toast({
          title: t('admin.addUser.assignFailed'),
          description: t('admin.addUser.assignFailedText', {
            name: created.username,
            workspace: target.name,
            message: errorMessage(error),
          }),
          variant: 'destructive',
        });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('admin.addUser.title')}</CardTitle>
        <CardDescription>
          {superAdmin
            ? t('admin.addUser.textSuper')
            : t('admin.addUser.text', {
                name: currentWorkspace?.name ?? t('admin.addUser.currentWorkspace'),
              })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate>
          <div className={styles.grid}>
            <UsernameField
              autoComplete="off"
              value={values.username}
              onChange={set('username')}
              error={errors.username}
            />
            <EmailField
              label={t('admin.users.email')}
              autoComplete="off"
              value={values.email}
              onChange={set('email')}
              error={errors.email}
            />
            <PasswordField
              autoComplete="new-password"
              value={values.password}
              onChange={set('password')}
              error={errors.password}
            />
          </div>
          {superAdmin && (
            <div className={styles.grid}>
              <div className={styles.field}>
                <Label htmlFor={workspaceId}>{t('admin.addUser.workspace')}</Label>
                <Select
                  id={workspaceId}
                  value={workspaceChoice}
                  onChange={(event) => setWorkspaceChoice(event.target.value)}
                >
                  <option value="">{t('admin.none')}</option>
                  {workspaces.map((workspace) => (
                    <option key={workspace.id} value={String(workspace.id)}>
                      {workspace.name}
                    </option>
                  ))}
                </Select>
              </div>
              <div className={styles.field}>
                <Label htmlFor={roleId}>{t('admin.users.role')}</Label>
                <Select
                  id={roleId}
                  value={role}
                  disabled={!workspaceChoice}
                  onChange={(event) => setRole(event.target.value as Role)}
                >
                  {ROLES.map((value) => (
                    <option key={value} value={value}>
                      {t(`admin.role_${value}`)}
                    </option>
                  ))}
                </Select>
              </div>
            </div>
          )}
          <div className={styles.buttons}>
            <Button type="submit" disabled={!filled || busy}>
              <PlusIcon />
              {busy ? t('admin.addUser.pending') : t('admin.addUser.submit')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
