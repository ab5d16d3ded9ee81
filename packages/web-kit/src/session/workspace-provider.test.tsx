import { act, screen, waitFor } from '@testing-library/react';
import { answer, buildUser, buildWorkspace, renderWithClient, stubApi } from '../test/render';
import { SessionProvider, useSession } from './session-provider';
import { useWorkspace, WorkspaceProvider } from './workspace-provider';

function Probe() {
  const { user, isLoading } = useSession();
  const { currentWorkspace, workspaces, isAdmin, selectWorkspace } = useWorkspace();
  if (isLoading) return <p>loading</p>;
  return (
    <div>
      <p>user: {user?.username ?? 'none'}</p>
      <p>workspaces: {workspaces.map((w) => w.name).join(',') || 'none'}</p>
      <p>current: {currentWorkspace?.name ?? 'none'}</p>
      <p>admin: {String(isAdmin)}</p>
      <button onClick={() => selectWorkspace(2)}>pick Beta</button>
    </div>
  );
}

const renderProviders = () =>
  renderWithClient(
    <SessionProvider>
      <WorkspaceProvider>
        <Probe />
      </WorkspaceProvider>
    </SessionProvider>,
  );

const json =
  (data: unknown, status = 200) =>
  () =>
    answer(status, data);
const workspaces = [buildWorkspace(1, 'Acme'), buildWorkspace(2, 'Beta')];

beforeEach(() => localStorage.clear());

describe('SessionProvider and WorkspaceProvider', () => {
  it('when GET /api/user answers 401, then there is no user and no workspace request', async () => {
    const calls = stubApi({ 'GET /api/user': () => answer(401, '', 'Unauthorized') });
    renderProviders();
    expect(await screen.findByText('user: none')).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual(['/api/user']);
  });

  it('when nothing is stored, then the first workspace becomes current and is stored', async () => {
    stubApi({ 'GET /api/user': json(buildUser()), 'GET /api/user/workspaces': json(workspaces) });
    renderProviders();
    expect(await screen.findByText('current: Acme')).toBeTruthy();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('1');
    expect(screen.getByText('admin: true')).toBeTruthy();
  });

  it('when the stored id is in the list, then that workspace is current', async () => {
    localStorage.setItem('currentWorkspaceId', '2');
    stubApi({ 'GET /api/user': json(buildUser()), 'GET /api/user/workspaces': json(workspaces) });
    renderProviders();
    expect(await screen.findByText('current: Beta')).toBeTruthy();
    expect(screen.getByText('admin: false')).toBeTruthy();
  });

  it('when the stored id is no longer in the list, then the first workspace is current', async () => {
    localStorage.setItem('currentWorkspaceId', '9');
    stubApi({ 'GET /api/user': json(buildUser()), 'GET /api/user/workspaces': json(workspaces) });
    renderProviders();
    expect(await screen.findByText('current: Acme')).toBeTruthy();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('1');
  });

  it('when the workspace list answers 403, then the list is empty and nothing is selected', async () => {
    localStorage.setItem('currentWorkspaceId', '1');
    stubApi({
      'GET /api/user': json(buildUser()),
      'GET /api/user/workspaces': () => answer(403, 'Forbidden'),
    });
    renderProviders();
    expect(await screen.findByText('workspaces: none')).toBeTruthy();
    expect(screen.getByText('current: none')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem('currentWorkspaceId')).toBeNull());
  });

  it('when a workspace is selected, then it is stored, sent as header and all data is refetched', async () => {
    const calls = stubApi({
      'GET /api/user': json(buildUser()),
      'GET /api/user/workspaces': json(workspaces),
    });
    renderProviders();
    await screen.findByText('current: Acme');
    const before = calls.length;
    act(() => screen.getByText('pick Beta').click());
    expect(await screen.findByText('current: Beta')).toBeTruthy();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('2');
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(before + 2));
    expect(
      calls
        .slice(before)
        .map((c) => c.url)
        .sort(),
    ).toEqual(['/api/user', '/api/user/workspaces']);
    expect(calls.at(-1)!.headers['x-workspace-id']).toBe('2');
  });
});
