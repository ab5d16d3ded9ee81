import { useId, useState, type FormEvent } from 'react';
import { ROLES, type Role } from '@aict/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Label,
  Select,
  errorMessage,
  toast,
  useSession,
  useWorkspace,
} from '@aict/web-kit';
import { PlusIcon } from '../../../lib/icons';
import { CreateUserBody, useCreateUser } from '../api/create-user';
import { useAssignableWorkspaces } from '../api/get-all-workspaces';
import { fieldErrors, TextField } from './field';
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
  const { currentWorkspace, addUserToWorkspace } = useWorkspace();
  const { workspaces } = useAssignableWorkspaces();
  const create = useCreateUser();
  const superAdmin = me?.isSuperAdmin === true;

  const [values, setValues] = useState(EMPTY);
  const [workspaceChoice, setWorkspaceChoice] = useState(''); // '' = None
  const [role, setRole] = useState<Role>('user');
  const [errors, setErrors] = useState<Record<string, string>>({});
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
        title: 'Missing Fields',
        description: 'Please fill out all required fields.',
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
          title: 'Failed to create user',
          description: errorMessage(error),
          variant: 'destructive',
        });
        return null;
      });
      if (!created) return;
      setValues(EMPTY);
      if (!target) {
        toast({ title: 'User Created', description: `${created.username} has been created.` });
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
          title: 'User Created',
          description: `${created.username} has been created and added to ${target.name} as ${targetRole}.`,
        });
      } catch (error) {
        toast({
          title: 'Created User but Failed to Assign Workspace',
          description: `${created.username} was created but could not be added to ${target.name}: ${errorMessage(error)}`,
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
        <CardTitle>Add New User</CardTitle>
        <CardDescription>
          {superAdmin
            ? 'Create an account and, optionally, assign it to a workspace with a role.'
            : `Create an account; it joins ${currentWorkspace?.name ?? 'the current workspace'} as a user.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate>
          <div className={styles.grid}>
            <TextField
              label="Username"
              name="username"
              autoComplete="off"
              value={values.username}
              onChange={set('username')}
              error={errors.username}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="off"
              value={values.email}
              onChange={set('email')}
              error={errors.email}
            />
            <TextField
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              value={values.password}
              onChange={set('password')}
              error={errors.password}
            />
          </div>
          {superAdmin && (
            <div className={styles.grid}>
              <div className={styles.field}>
                <Label htmlFor={workspaceId}>Workspace</Label>
                <Select
                  id={workspaceId}
                  value={workspaceChoice}
                  onChange={(event) => setWorkspaceChoice(event.target.value)}
                >
                  <option value="">None</option>
                  {workspaces.map((workspace) => (
                    <option key={workspace.id} value={String(workspace.id)}>
                      {workspace.name}
                    </option>
                  ))}
                </Select>
              </div>
              <div className={styles.field}>
                <Label htmlFor={roleId}>Role</Label>
                <Select
                  id={roleId}
                  value={role}
                  disabled={!workspaceChoice}
                  onChange={(event) => setRole(event.target.value as Role)}
                >
                  {ROLES.map((value) => (
                    <option key={value} value={value}>
                      {value === 'admin' ? 'Admin' : 'User'}
                    </option>
                  ))}
                </Select>
              </div>
            </div>
          )}
          <div className={styles.buttons}>
            <Button type="submit" disabled={!filled || busy}>
              <PlusIcon />
              {busy ? 'Adding...' : 'Add User'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
