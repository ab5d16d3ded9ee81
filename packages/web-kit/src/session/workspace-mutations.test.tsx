import { act, screen, waitFor } from '@testing-library/react';
import { answer, buildUser, buildWorkspace, renderWithClient, stubApi } from '../test/render';
import { dismissToast, Toaster } from '../ui/toast';
import { SessionProvider } from './session-provider';
import { useWorkspace, WorkspaceProvider } from './workspace-provider';

// SPEC §4 (selection after a workspace is deleted), §6/§7 (membership calls, cached user
// lists refreshed afterwards) and the §8 texts of the workspace provider's mutations.

function Probe() {
  const {
    currentWorkspace,
    workspaces,
    deleteWorkspace,
    addUserToWorkspace,
    removeUserFromWorkspace,
    updateUserRole,
  } = useWorkspace();
  return (
    <div>
      <p>workspaces: {workspaces.map((w) => w.name).join(',') || 'none'}</p>
      <p>current: {currentWorkspace?.name ?? 'none'}</p>
      {workspaces.map((w) => (
        <button key={w.id} onClick={() => deleteWorkspace.mutate(w.id)}>
          delete {w.name}
        </button>
      ))}
      <button
        onClick={() => addUserToWorkspace.mutate({ workspaceId: 2, userId: 'u9', role: 'admin' })}
      >
        add u9
      </button>
      <button
        onClick={() =>
          addUserToWorkspace.mutate({ workspaceId: 2, userId: 'u9', role: 'user', notify: false })
        }
      >
        add u9 quietly
      </button>
      <button onClick={() => removeUserFromWorkspace.mutate({ workspaceId: 2, userId: 'u9' })}>
        remove u9
      </button>
      <button onClick={() => updateUserRole.mutate({ workspaceId: 2, userId: 'u9', role: 'user' })}>
        demote u9
      </button>
    </div>
  );
}

const renderProviders = () =>
  renderWithClient(
    <SessionProvider>
      <WorkspaceProvider>
        <Probe />
        <Toaster />
      </WorkspaceProvider>
    </SessionProvider>,
  );

/** A server whose workspace list shrinks when one is deleted. */
function stubServer(initial: ReturnType<typeof buildWorkspace>[], overrides = {}) {
  let list = [...initial];
  const routes: Parameters<typeof stubApi>[0] = {
    'GET /api/user': () => answer(200, buildUser({ isSuperAdmin: true })),
    'GET /api/user/workspaces': () => answer(200, list),
    'GET /api/workspaces': () => answer(200, list),
    'GET /api/users': () => answer(200, []),
    ...overrides,
  };
  for (const workspace of initial) {
    routes[`DELETE /api/workspaces/${workspace.id}`] ??= () => {
      list = list.filter((w) => w.id !== workspace.id);
      return answer(204);
    };
  }
  return stubApi(routes);
}

const acme = buildWorkspace(1, 'Acme');
const beta = buildWorkspace(2, 'Beta');
const gamma = buildWorkspace(3, 'Gamma');

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

describe('workspace provider mutations', () => {
  it('when the current workspace is deleted, then the first remaining one becomes current and is stored', async () => {
    localStorage.setItem('currentWorkspaceId', '2');
    stubServer([acme, beta, gamma]);
    renderProviders();
    await screen.findByText('current: Beta');

    act(() => screen.getByText('delete Beta').click());

    expect(await screen.findByText('current: Acme')).toBeTruthy();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('1');
    expect(await screen.findByText('Workspace deleted')).toBeTruthy();
    await screen.findByText('workspaces: Acme,Gamma');
  });

  it('when the last workspace is deleted, then the selection and the stored id are cleared', async () => {
    stubServer([acme]);
    renderProviders();
    await screen.findByText('current: Acme');
    expect(localStorage.getItem('currentWorkspaceId')).toBe('1');

    act(() => screen.getByText('delete Acme').click());

    expect(await screen.findByText('current: none')).toBeTruthy();
    expect(screen.getByText('workspaces: none')).toBeTruthy();
    expect(localStorage.getItem('currentWorkspaceId')).toBeNull();
  });

  it('when another workspace than the current one is deleted, then the current one stays', async () => {
    localStorage.setItem('currentWorkspaceId', '3');
    stubServer([acme, beta, gamma]);
    renderProviders();
    await screen.findByText('current: Gamma');

    act(() => screen.getByText('delete Beta').click());

    await screen.findByText('workspaces: Acme,Gamma');
    expect(screen.getByText('current: Gamma')).toBeTruthy();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('3');
  });

  it('when the server refuses a delete, then "Error deleting workspace" shows with its message', async () => {
    stubServer([acme, beta], {
      'DELETE /api/workspaces/1': () =>
        answer(400, {
          code: 'WORKSPACE.DEFAULT_NOT_DELETABLE',
          message: 'Cannot Delete Default Workspace',
        }),
    });
    renderProviders();
    await screen.findByText('current: Acme');

    act(() => screen.getByText('delete Acme').click());

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error deleting workspace');
    expect(alert.textContent).toContain('Cannot Delete Default Workspace');
    expect(screen.getByText('current: Acme')).toBeTruthy();
  });

  it('when a user is added with a role, then it POSTs userId and role and refreshes the user lists', async () => {
    const calls = stubServer([acme, beta], {
      'POST /api/workspaces/2/users': () =>
        answer(201, { workspaceId: 2, userId: 'u9', role: 'admin' }),
    });
    const { queryClient } = renderProviders();
    await screen.findByText('current: Acme');
    queryClient.setQueryData(['/api/users'], []);
    queryClient.setQueryData(['/api/users/u9/workspaces'], []);

    act(() => screen.getByText('add u9').click());

    expect(await screen.findByText('User Added to Workspace')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/workspaces/2/users');
    // cached user lists (not on screen here, so marked stale rather than refetched)
    await waitFor(() =>
      expect(queryClient.getQueryState(['/api/users'])?.isInvalidated).toBe(true),
    );
    expect(queryClient.getQueryState(['/api/users/u9/workspaces'])?.isInvalidated).toBe(true);
  });

  it('when notify is false, then the caller gets the error and no toast shows', async () => {
    stubServer([acme, beta], {
      'POST /api/workspaces/2/users': () => answer(403, { code: 'AUTH.FORBIDDEN', message: 'No' }),
    });
    renderProviders();
    await screen.findByText('current: Acme');

    act(() => screen.getByText('add u9 quietly').click());

    await waitFor(() =>
      expect(globalThis.fetch).toHaveBeenCalledWith(
        '/api/workspaces/2/users',
        expect.objectContaining({ method: 'POST', body: '{"userId":"u9","role":"user"}' }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when a role is changed or a user removed, then PATCH and DELETE go to the member URL with their toasts', async () => {
    const calls = stubServer([acme, beta], {
      'PATCH /api/workspaces/2/users/u9': () =>
        answer(200, { workspaceId: 2, userId: 'u9', role: 'user' }),
      'DELETE /api/workspaces/2/users/u9': () => answer(500, 'database down'),
    });
    renderProviders();
    await screen.findByText('current: Acme');

    act(() => screen.getByText('demote u9').click());
    expect(await screen.findByText('Role Updated')).toBeTruthy();
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.url).toBe('/api/workspaces/2/users/u9');

    act(() => screen.getByText('remove u9').click());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error removing user from workspace');
    expect(alert.textContent).toContain('500: database down');
  });
});
