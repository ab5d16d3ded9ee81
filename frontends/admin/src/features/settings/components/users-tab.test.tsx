import '../../../test/setup';
import path from 'node:path';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer, buildUser, loadStylesheet } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import {
  bob,
  settingsServer,
  superAdmin,
  workspaceAdmin,
  writes,
} from '../../../test/settings-api';

// SPEC §2 "Users tab", §5 Users rules, §7 Users calls and the §8 settings texts.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

const fill = (label: string, value: string, scope: HTMLElement = document.body) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

async function addUserForm() {
  const heading = await screen.findByRole('heading', { name: 'Add New User' });
  return heading.closest('.wk-card') as HTMLElement;
}

describe('the current admins list', () => {
  it('when the tab opens, then super admins and admins of the current workspace are listed, read-only', async () => {
    settingsServer({ me: workspaceAdmin, users: [workspaceAdmin, bob, superAdmin] });
    renderAdmin('/settings?tab=users');
    const list = await screen.findByRole('list', { name: 'Current admins' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'wendywendy@example.comAdmin',
      'root adminroot@example.comSuper Admin',
    ]);
    expect(within(list).queryByRole('button')).toBeNull();
  });
});

describe('Add New User', () => {
  it('when username, e-mail and password are not all filled, then Add User stays disabled', async () => {
    settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings?tab=users');
    const form = await addUserForm();
    const add = within(form).getByRole('button', { name: 'Add User' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fill('Username', 'carol', form);
    expect(add.disabled).toBe(true);
    fill('Email', 'carol@example.com', form);
    expect(add.disabled).toBe(true);
    fill('Username', '   ', form);
    fill('Password', 'secret1', form);
    expect(add.disabled).toBe(true);
    fill('Username', 'carol', form);
    expect(add.disabled).toBe(false);
  });

  it('when a workspace admin adds a user, then no workspace picker shows and the user joins the current workspace', async () => {
    const { calls } = settingsServer({
      me: workspaceAdmin,
      routes: {
        'POST /api/workspaces/1/users': () =>
          answer(201, { workspaceId: 1, userId: 'new-2', role: 'user' }),
      },
    });
    renderAdmin('/settings?tab=users');
    const form = await addUserForm();
    expect(within(form).queryByLabelText('Workspace')).toBeNull();
    fill('Username', 'carol', form);
    fill('Email', 'carol@example.com', form);
    fill('Password', 'secret1', form);
    act(() => within(form).getByRole('button', { name: 'Add User' }).click());

    expect(await screen.findByText('User Created')).toBeTruthy();
    expect(writes(calls)).toEqual(['POST /api/users', 'POST /api/workspaces/1/users']);
    expect(calls.find((c) => c.url === '/api/workspaces/1/users')!.body).toEqual({
      userId: 'new-2',
      role: 'user',
    });
    expect((within(form).getByLabelText('Username') as HTMLInputElement).value).toBe('');
  });

  it('when a super admin picks a workspace and a role, then the user is created, then assigned with that role', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      routes: {
        'POST /api/workspaces/2/users': () =>
          answer(201, { workspaceId: 2, userId: 'new-2', role: 'admin' }),
      },
    });
    renderAdmin('/settings?tab=users');
    const form = await addUserForm();
    await within(form).findByRole('option', { name: 'Beta' });
    fill('Username', 'carol', form);
    fill('Email', 'Carol@Example.com', form);
    fill('Password', 'secret1', form);
    fill('Workspace', '2', form);
    fill('Role', 'admin', form);
    act(() => within(form).getByRole('button', { name: 'Add User' }).click());

    expect(await screen.findByText('User Created')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/users' && c.method === 'POST')!.body).toEqual({
      username: 'carol',
      email: 'carol@example.com',
      password: 'secret1',
      workspaceId: 2,
      role: 'admin',
    });
    expect(calls.find((c) => c.url === '/api/workspaces/2/users')!.body).toEqual({
      userId: 'new-2',
      role: 'admin',
    });
  });

  it('when a super admin picks None, then only the user is created', async () => {
    const { calls } = settingsServer({ me: superAdmin });
    renderAdmin('/settings?tab=users');
    const form = await addUserForm();
    fill('Username', 'carol', form);
    fill('Email', 'carol@example.com', form);
    fill('Password', 'secret1', form);
    act(() => within(form).getByRole('button', { name: 'Add User' }).click());
    expect(await screen.findByText('User Created')).toBeTruthy();
    expect(writes(calls)).toEqual(['POST /api/users']);
  });

  it('when the assignment after creating fails, then "Created User but Failed to Assign Workspace" shows', async () => {
    settingsServer({
      me: superAdmin,
      routes: {
        'POST /api/workspaces/2/users': () =>
          answer(503, { code: 'INTERNAL', message: 'Workspace service unavailable' }),
      },
    });
    renderAdmin('/settings?tab=users');
    const form = await addUserForm();
    await within(form).findByRole('option', { name: 'Beta' });
    fill('Username', 'carol', form);
    fill('Email', 'carol@example.com', form);
    fill('Password', 'secret1', form);
    fill('Workspace', '2', form);
    act(() => within(form).getByRole('button', { name: 'Add User' }).click());

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Created User but Failed to Assign Workspace');
    expect(alert.textContent).toContain('Workspace service unavailable');
    expect(screen.queryByText('User Created')).toBeNull();
  });

  it('when creating fails, then "Failed to create user" shows and nothing is assigned', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      routes: {
        'POST /api/users': () =>
          answer(409, { code: 'USER.USERNAME_TAKEN', message: 'Username already exists' }),
      },
    });
    renderAdmin('/settings?tab=users');
    const form = await addUserForm();
    await within(form).findByRole('option', { name: 'Beta' });
    fill('Username', 'bob', form);
    fill('Email', 'bob2@example.com', form);
    fill('Password', 'secret1', form);
    fill('Workspace', '2', form);
    act(() => within(form).getByRole('button', { name: 'Add User' }).click());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to create user');
    expect(alert.textContent).toContain('Username already exists');
    expect(writes(calls)).toEqual(['POST /api/users']);
  });

  it('when the password is too short, then the field says so and nothing is sent', async () => {
    const { calls } = settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings?tab=users');
    const form = await addUserForm();
    fill('Username', 'carol', form);
    fill('Email', 'carol@example.com', form);
    fill('Password', '123', form);
    act(() => within(form).getByRole('button', { name: 'Add User' }).click());
    expect(await within(form).findByText('Password must be at least 6 characters')).toBeTruthy();
    expect(writes(calls)).toEqual([]);
  });
});

describe('the users table', () => {
  it('when listed, then each row shows username, e-mail, Super Admin or User, and workspace chips with roles', async () => {
    settingsServer({ me: superAdmin, users: [superAdmin, bob] });
    renderAdmin('/settings?tab=users');
    const table = await screen.findByRole('table', { name: 'Users' });
    const bobRow = within(table).getByText('bob').closest('tr')!;
    expect(within(bobRow).getByText('bob@example.com')).toBeTruthy();
    expect(within(bobRow).getByText('User')).toBeTruthy();
    await within(bobRow).findByText('Beta · admin');
    expect(within(bobRow).getByText('Acme · user')).toBeTruthy();
    const meRow = within(table).getByText('root admin').closest('tr')!;
    expect(within(meRow).getByText('Super Admin')).toBeTruthy();
  });

  it('when listed, then the e-mail column keeps a readable width and workspace chips wrap instead of being clipped', async () => {
    const removeCss = loadStylesheet(path.resolve(__dirname, 'settings.module.css'));
    settingsServer({ me: superAdmin, users: [superAdmin, bob] });
    renderAdmin('/settings?tab=users');
    const table = await screen.findByRole('table', { name: 'Users' });
    const bobRow = within(table).getByText('bob').closest('tr')!;
    const email = getComputedStyle(within(bobRow).getByText('bob@example.com'));
    expect(email.overflowWrap).not.toBe('anywhere'); // 'anywhere' squeezes the column
    expect(email.minWidth).toBe('12rem');
    const chip = getComputedStyle(await within(bobRow).findByText('Beta · admin'));
    expect(chip.whiteSpace).not.toBe('nowrap');
    expect(chip.maxWidth).toBe('100%');
    removeCss();
  });

  it('when the row is the signed-in user, then delete is not offered there', async () => {
    settingsServer({ me: superAdmin, users: [superAdmin, bob] });
    renderAdmin('/settings?tab=users');
    await screen.findByRole('table', { name: 'Users' });
    expect(screen.queryByRole('button', { name: 'Delete root admin' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit root admin' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset password of root admin' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete bob' })).toBeTruthy();
  });

  it('when delete is confirmed, then the user is deleted and "User Deleted" shows; Cancel sends nothing', async () => {
    const { calls } = settingsServer({ me: superAdmin, users: [superAdmin, bob] });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Delete bob' });
    act(() => firstAction.click());
    let dialog = screen.getByRole('alertdialog', { name: 'Delete user?' });
    act(() => within(dialog).getByRole('button', { name: 'Cancel' }).click());
    expect(writes(calls)).toEqual([]);

    act(() => screen.getByRole('button', { name: 'Delete bob' }).click());
    dialog = screen.getByRole('alertdialog', { name: 'Delete user?' });
    act(() => within(dialog).getByRole('button', { name: 'Delete' }).click());
    expect(await screen.findByText('User Deleted')).toBeTruthy();
    expect(writes(calls)).toEqual(['DELETE /api/users/bob']);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete bob' })).toBeNull());
  });

  it('when deleting fails, then "Failed to delete user" shows with the reason', async () => {
    settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: {
        'DELETE /api/users/bob': () =>
          answer(403, { code: 'AUTH.FORBIDDEN', message: 'You do not have permission to do this' }),
      },
    });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Delete bob' });
    act(() => firstAction.click());
    act(() =>
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }).click(),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to delete user');
    expect(alert.textContent).toContain('You do not have permission to do this');
  });
});

describe('Reset Password', () => {
  it('when no password is entered, then Reset Password is disabled; once entered it posts it', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: { 'POST /api/users/bob/reset-password': () => answer(204) },
    });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Reset password of bob' });
    act(() => firstAction.click());
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    const reset = within(dialog).getByRole('button', { name: 'Reset Password' });
    expect((reset as HTMLButtonElement).disabled).toBe(true);
    fill('New Password', 'another-secret', dialog);
    expect((reset as HTMLButtonElement).disabled).toBe(false);
    act(() => reset.click());
    expect(await screen.findByText('Password Reset')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ password: 'another-secret' });
    expect(screen.queryByRole('dialog', { name: 'Reset Password' })).toBeNull();
  });

  it('when the reset fails, then "Failed to reset password" shows', async () => {
    settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: { 'POST /api/users/bob/reset-password': () => answer(500, 'boom') },
    });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Reset password of bob' });
    act(() => firstAction.click());
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    fill('New Password', 'another-secret', dialog);
    act(() => within(dialog).getByRole('button', { name: 'Reset Password' }).click());
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to reset password');
  });
});

describe('Edit User', () => {
  it('when a super admin edits, then every assignment shows; changing a role and removing one saves with "Workspaces Updated"', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: {
        'PATCH /api/workspaces/2/users/bob': () =>
          answer(200, { workspaceId: 2, userId: 'bob', role: 'user' }),
        'DELETE /api/workspaces/1/users/bob': () => answer(204),
      },
    });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Edit bob' });
    act(() => firstAction.click());
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    const betaRole = (await within(dialog).findByLabelText('Role in Beta')) as HTMLSelectElement;
    expect(betaRole.value).toBe('admin');
    expect(within(dialog).getByLabelText('Role in Acme')).toBeTruthy();

    fireEvent.change(betaRole, { target: { value: 'user' } });
    act(() => within(dialog).getByRole('button', { name: 'Remove from Acme' }).click());
    expect(within(dialog).queryByLabelText('Role in Acme')).toBeNull();
    expect(writes(calls)).toEqual([]); // nothing before Save
    act(() => within(dialog).getByRole('button', { name: 'Save Changes' }).click());

    expect(await screen.findByText('Workspaces Updated')).toBeTruthy();
    expect(writes(calls)).toEqual([
      'PATCH /api/workspaces/2/users/bob',
      'DELETE /api/workspaces/1/users/bob',
    ]);
  });

  it('when only the name changes, then the user is PUT and "User Updated" shows', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: {
        'PUT /api/users/bob': () => answer(200, { ...bob, username: 'robert' }),
      },
    });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Edit bob' });
    act(() => firstAction.click());
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    await within(dialog).findByLabelText('Role in Beta');
    fill('Username', 'robert', dialog);
    act(() => within(dialog).getByRole('button', { name: 'Save Changes' }).click());
    expect(await screen.findByText('User Updated')).toBeTruthy();
    expect(writes(calls)).toEqual(['PUT /api/users/bob']);
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      username: 'robert',
      email: 'bob@example.com',
    });
  });

  it('when a workspace is added, then it is POSTed with its role and "User Assigned" shows', async () => {
    const carol = buildUser({
      id: 'carol',
      username: 'carol',
      email: 'c@example.com',
      workspaceRoles: {},
    });
    const { calls } = settingsServer({
      me: superAdmin,
      users: [superAdmin, carol],
      routes: {
        'POST /api/workspaces/2/users': () =>
          answer(201, { workspaceId: 2, userId: 'carol', role: 'admin' }),
      },
    });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Edit carol' });
    act(() => firstAction.click());
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    await within(dialog).findByText('Not assigned to any workspace.');
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fill('Add to workspace', '2', dialog);
    fill('Role', 'admin', dialog);
    act(() => add.click());
    expect(within(dialog).getByLabelText('Role in Beta')).toBeTruthy();
    act(() => within(dialog).getByRole('button', { name: 'Save Changes' }).click());
    expect(await screen.findByText('User Assigned')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      userId: 'carol',
      role: 'admin',
    });
  });

  it('when an assignment call fails, then "Workspace Assignment Error" shows', async () => {
    settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: { 'DELETE /api/workspaces/1/users/bob': () => answer(500, 'boom') },
    });
    renderAdmin('/settings?tab=users');
    const firstAction = await screen.findByRole('button', { name: 'Edit bob' });
    act(() => firstAction.click());
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    await within(dialog).findByLabelText('Role in Acme');
    act(() => within(dialog).getByRole('button', { name: 'Remove from Acme' }).click());
    act(() => within(dialog).getByRole('button', { name: 'Save Changes' }).click());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Workspace Assignment Error');
    expect(alert.textContent).toContain('Acme: 500: boom');
  });

  it('when a workspace admin edits, then only the current workspace assignment shows', async () => {
    settingsServer({ me: workspaceAdmin, users: [workspaceAdmin, bob] });
    renderAdmin('/settings?tab=users');
    const edit = await screen.findByRole('button', { name: 'Edit bob' });
    act(() => edit.click());
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    expect(await within(dialog).findByLabelText('Role in Acme')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Role in Beta')).toBeNull();
    expect(within(dialog).queryByLabelText('Add to workspace')).toBeNull();
  });
});
