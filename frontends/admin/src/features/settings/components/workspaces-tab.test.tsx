import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer, buildWorkspace } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { acme, beta, bob, settingsServer, superAdmin, writes } from '../../../test/settings-api';

// SPEC §2 "Workspaces tab", §4 selection after a delete, §5 Workspaces rules, §7 Workspaces
// calls and the §8 texts.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

async function row(name: string) {
  const table = await screen.findByRole('table', { name: 'Workspaces' });
  return within(table).getByText(name).closest('tr') as HTMLElement;
}

describe('the workspaces table', () => {
  it('when it loads, then each workspace shows its name, description, logo, user count and actions', async () => {
    const logoed = buildWorkspace(3, 'Gamma', {
      description: 'Design team',
      logoUrl: '/api/workspaces/3/logo?v=2',
    });
    settingsServer({ me: superAdmin, workspaces: [acme, beta, logoed] });
    renderAdmin('/settings?tab=workspaces');
    const gamma = await row('Gamma');
    expect(within(gamma).getByText('Design team')).toBeTruthy();
    expect(within(gamma).getByRole('img', { name: 'Gamma logo' }).getAttribute('src')).toBe(
      '/api/workspaces/3/logo?v=2',
    );
    const acmeRow = await row('Acme');
    await within(acmeRow).findByText('2 users'); // root admin and bob
    expect(within(acmeRow).getByRole('button', { name: 'Assign users to Acme' })).toBeTruthy();
    expect(within(acmeRow).getByRole('button', { name: 'Edit Acme' })).toBeTruthy();
    expect(within(acmeRow).getByRole('button', { name: 'Upload logo for Acme' })).toBeTruthy();
  });
});

describe('deleting a workspace', () => {
  it('when the default workspace (1) is to be deleted, then "Cannot Delete Default Workspace" shows and nothing is sent', async () => {
    const { calls } = settingsServer({ me: superAdmin });
    renderAdmin('/settings?tab=workspaces');
    await row('Acme');
    act(() => screen.getByRole('button', { name: 'Delete Acme' }).click());
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Cannot Delete Default Workspace',
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('when the current workspace is deleted after confirming, then the first remaining one becomes current', async () => {
    localStorage.setItem('currentWorkspaceId', '2');
    const gamma = buildWorkspace(3, 'Gamma');
    const { calls } = settingsServer({ me: superAdmin, workspaces: [acme, beta, gamma] });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    act(() => screen.getByRole('button', { name: 'Delete Beta' }).click());
    const dialog = screen.getByRole('alertdialog', { name: 'Delete workspace?' });
    act(() => within(dialog).getByRole('button', { name: 'Delete' }).click());

    expect(await screen.findByText('Workspace deleted')).toBeTruthy();
    expect(writes(calls)).toEqual(['DELETE /api/workspaces/2']);
    await waitFor(() => expect(localStorage.getItem('currentWorkspaceId')).toBe('1'));
    await waitFor(() => expect(screen.queryByText('Beta')).toBeNull());
  });

  it('when the server refuses the delete, then "Error deleting workspace" shows', async () => {
    settingsServer({
      me: superAdmin,
      routes: {
        'DELETE /api/workspaces/2': () => answer(500, { code: 'INTERNAL', message: 'Oops' }),
      },
    });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    act(() => screen.getByRole('button', { name: 'Delete Beta' }).click());
    act(() =>
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }).click(),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error deleting workspace');
    expect(alert.textContent).toContain('Oops');
  });
});

describe('the workspace dialog', () => {
  it('when a workspace is created, then the name is required, then it is POSTed and "Workspace created" shows', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { calls } = settingsServer({
      me: superAdmin,
      routes: {
        'POST /api/workspaces': async (call) => {
          await held; // keep the call pending until the test has seen the pending state
          return answer(201, buildWorkspace(3, (call.body as { name: string }).name));
        },
      },
    });
    renderAdmin('/settings?tab=workspaces');
    await row('Acme');
    act(() => screen.getByRole('button', { name: 'Create Workspace' }).click());
    const dialog = screen.getByRole('dialog', { name: 'Create Workspace' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '   ' } });
    act(() => within(dialog).getByRole('button', { name: 'Create Workspace' }).click());
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Marketing ' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), {
      target: { value: 'Campaigns' },
    });
    act(() => within(dialog).getByRole('button', { name: 'Create Workspace' }).click());
    expect(await within(dialog).findByRole('button', { name: 'Creating...' })).toBeTruthy();
    act(() => release());

    expect(await screen.findByText('Workspace created')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Marketing',
      description: 'Campaigns',
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Create Workspace' })).toBeNull(),
    );
  });

  it('when a workspace is edited, then it is PATCHed and "Workspace updated" shows; a failure shows "Error updating workspace"', async () => {
    let fail = false;
    const { calls } = settingsServer({
      me: superAdmin,
      routes: {
        'PATCH /api/workspaces/2': (call) =>
          fail
            ? answer(409, {
                code: 'WORKSPACE.NAME_TAKEN',
                message: 'A workspace with this name already exists',
              })
            : answer(200, { ...beta, ...(call.body as object) }),
      },
    });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    act(() => screen.getByRole('button', { name: 'Edit Beta' }).click());
    let dialog = screen.getByRole('dialog', { name: 'Edit Workspace' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Beta');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Beta Team' } });
    act(() => within(dialog).getByRole('button', { name: 'Save Changes' }).click());
    expect(await screen.findByText('Workspace updated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      name: 'Beta Team',
      description: '',
    });

    fail = true;
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Edit Workspace' })).toBeNull(),
    );
    act(() => screen.getByRole('button', { name: 'Edit Beta' }).click());
    dialog = screen.getByRole('dialog', { name: 'Edit Workspace' });
    act(() => within(dialog).getByRole('button', { name: 'Save Changes' }).click());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error updating workspace');
    expect(alert.textContent).toContain('A workspace with this name already exists');
  });
});

describe('Assign Users', () => {
  it('when a user and a role are chosen, then Assign adds the user to the workspace', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: {
        'POST /api/workspaces/2/users': () =>
          answer(201, { workspaceId: 2, userId: 'sa', role: 'user' }),
      },
    });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    act(() => screen.getByRole('button', { name: 'Assign users to Beta' }).click());
    const dialog = screen.getByRole('dialog', { name: 'Assign Users' });
    expect(within(dialog).getByLabelText('Role of bob')).toBeTruthy(); // a member already
    const assign = within(dialog).getByRole('button', { name: 'Assign' }) as HTMLButtonElement;
    expect(assign.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('User'), { target: { value: 'sa' } });
    expect(assign.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'user' } });
    expect(assign.disabled).toBe(false);
    act(() => assign.click());

    expect(await screen.findByText('User Added to Workspace')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ userId: 'sa', role: 'user' });
  });

  it('when a member’s role is changed or the member removed, then the provider calls run with their toasts', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      users: [superAdmin, bob],
      routes: {
        'PATCH /api/workspaces/2/users/bob': () =>
          answer(200, { workspaceId: 2, userId: 'bob', role: 'user' }),
        'DELETE /api/workspaces/2/users/bob': () =>
          answer(403, { code: 'AUTH.FORBIDDEN', message: 'Nope' }),
      },
    });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    act(() => screen.getByRole('button', { name: 'Assign users to Beta' }).click());
    const dialog = screen.getByRole('dialog', { name: 'Assign Users' });
    fireEvent.change(within(dialog).getByLabelText('Role of bob'), { target: { value: 'user' } });
    expect(await screen.findByText('Role Updated')).toBeTruthy();
    act(() => within(dialog).getByRole('button', { name: 'Remove bob from Beta' }).click());
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Error removing user from workspace',
    );
    expect(writes(calls)).toEqual([
      'PATCH /api/workspaces/2/users/bob',
      'DELETE /api/workspaces/2/users/bob',
    ]);
  });
});

describe('logo upload', () => {
  const upload = (name: string, file: File) => {
    const input = screen.getByTestId(`logo-input-${name}`) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [file] } });
  };

  it('when a PNG is chosen, then it is POSTed as multipart field "logo" and "Logo Uploaded" shows', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      routes: {
        'POST /api/workspaces/2/logo': () => answer(200, { logoUrl: '/api/workspaces/2/logo?v=1' }),
      },
    });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    upload('2', new File(['png'], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('Logo Uploaded')).toBeTruthy();
    const body = calls.find((c) => c.method === 'POST')!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('logo') as File).name).toBe('logo.png');
  });

  it('when the upload fails, then "Upload Failed" says "Failed to upload workspace logo."', async () => {
    settingsServer({
      me: superAdmin,
      routes: {
        'POST /api/workspaces/2/logo': () =>
          answer(413, { code: 'FILE.TOO_LARGE', message: 'Too big' }),
      },
    });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    upload('2', new File(['png'], 'logo.png', { type: 'image/png' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Upload Failed');
    expect(alert.textContent).toContain('Failed to upload workspace logo.');
  });

  it('when a file that is not an image is chosen, then nothing is sent and "Upload Failed" shows', async () => {
    const { calls } = settingsServer({ me: superAdmin });
    renderAdmin('/settings?tab=workspaces');
    await row('Beta');
    upload('2', new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Upload Failed');
    expect(writes(calls)).toEqual([]);
  });
});
