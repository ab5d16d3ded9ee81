import '../../../test/setup';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { applyLanguage } from '@aict/web-kit';
import {
  answer,
  buildUser,
  buildWorkspace,
  renderWithProviders,
  stubApi,
  type StubRoutes,
} from '@aict/web-kit/testing';
import { AppLayout } from '../app-layout';
import { CHECKLIST_HIDDEN_KEY, CHECKLIST_SEEN_KEY } from './setup-checklist';

// First run: a signed-in user in no workspace learns why nothing shows and what to do; a
// super admin sees a set-up checklist on the home screen until every step is done or it is
// hidden, and so does a workspace admin while their workspace has no default prompt. Both in
// English and Dutch.

const acme = buildWorkspace(1, 'Acme');
const team = buildWorkspace(2, 'Team');
const newcomer = buildUser({ id: 'n', username: 'nina newcomer', workspaceRoles: {} });
const root = buildUser({ id: 'r', username: 'root', isSuperAdmin: true, workspaceRoles: {} });

function renderShell({
  user,
  workspaces,
  route = '/',
  routes = {},
}: {
  user: ReturnType<typeof buildUser>;
  workspaces: ReturnType<typeof buildWorkspace>[];
  route?: string;
  routes?: StubRoutes;
}) {
  const calls = stubApi({
    'GET /api/user': () => answer(200, user),
    'GET /api/user/workspaces': () => answer(200, workspaces),
    'GET /api/workspaces/1/settings/openai_api_key': () =>
      answer(200, { key: 'openai_api_key', value: null, scope: 'global' }),
    'GET /api/settings/default_text_model': () => answer(404, { code: 'SETTING.NOT_FOUND' }),
    'GET /api/settings/openai_api_key': () =>
      answer(200, { key: 'openai_api_key', value: null, scope: 'global' }),
    'GET /api/users': () => answer(200, [user]),
    ...routes,
  });
  renderWithProviders(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="*" element={<p>the screen</p>} />
      </Route>
    </Routes>,
    { route },
  );
  return calls;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  act(() => applyLanguage('en'));
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
});
afterEach(() => act(() => applyLanguage('en')));

describe('a user in no workspace', () => {
  it('when they sign in, then they read why nothing shows, with their username to pass on, instead of the screen', async () => {
    renderShell({ user: newcomer, workspaces: [] });
    const region = await screen.findByRole('region', { name: 'You are not in a workspace yet' });
    expect(within(region).getByText(/Ask an administrator to add you/)).toBeTruthy();
    expect(within(region).getByText('nina newcomer')).toBeTruthy();
    expect(screen.queryByText('the screen')).toBeNull();
    expect(document.title).toContain('You are not in a workspace yet');
  });

  it('when they are added and choose Check again, then the screen shows', async () => {
    let workspaces: ReturnType<typeof buildWorkspace>[] = [];
    renderShell({
      user: newcomer,
      workspaces,
      routes: { 'GET /api/user/workspaces': () => answer(200, workspaces) },
    });
    const button = await screen.findByRole('button', { name: 'Check again' });
    workspaces = [acme];
    act(() => button.click());
    expect(await screen.findByText('the screen')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'You are not in a workspace yet' })).toBeNull();
  });

  it('when the language is Dutch, then it reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    renderShell({ user: newcomer, workspaces: [] });
    const region = await screen.findByRole('region', {
      name: 'Je zit nog niet in een werkruimte',
    });
    expect(within(region).getByText(/Vraag een beheerder/)).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Opnieuw controleren' })).toBeTruthy();
  });

  it('when the user has a workspace, then the screen shows and no first-run notice', async () => {
    renderShell({ user: { ...newcomer, workspaceRoles: { '1': 'user' } }, workspaces: [acme] });
    expect(await screen.findByText('the screen')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /workspace yet/ })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe("the super admin's set-up checklist", () => {
  const steps = (region: HTMLElement) =>
    within(region)
      .getAllByRole('listitem')
      .map((item) => [
        within(item).getByText(
          /Add the AI|Choose the default|Choose a default|Create a workspace for|Invite/,
        ).textContent,
        item.getAttribute('data-done'),
      ]);

  it('when nothing is set up, then the home screen lists the five steps with links to where each is done', async () => {
    renderShell({ user: root, workspaces: [acme] });
    const region = await screen.findByRole('region', { name: 'Set up AI Content Tool' });
    expect(within(region).getByText('0 of 5 done')).toBeTruthy();
    expect(steps(region)).toEqual([
      ['Add the AI provider key (To do)', 'false'],
      ['Choose the default models (To do)', 'false'],
      ['Choose a default prompt (To do)', 'false'],
      ['Create a workspace for your team (To do)', 'false'],
      ['Invite people (To do)', 'false'],
    ]);
    const link = (name: string) => within(region).getByRole('link', { name }).getAttribute('href');
    expect(link('Add a key')).toBe('/settings?tab=api-keys');
    expect(link('Create a workspace')).toBe('/settings?tab=workspaces');
    expect(link('Add users')).toBe('/settings?tab=users');
    expect(link('Open Prompts')).toBe('/prompts');
    expect(screen.getByText('the screen')).toBeTruthy();
  });

  it('when some steps are done, then they are marked done and only the rest link on', async () => {
    renderShell({
      user: root,
      workspaces: [acme, team],
      routes: {
        'GET /api/workspaces/1/settings/openai_api_key': () =>
          answer(200, { key: 'openai_api_key', value: 'sk-…abcd', scope: 'global' }),
      },
    });
    const region = await screen.findByRole('region', { name: 'Set up AI Content Tool' });
    expect(within(region).getByText('2 of 5 done')).toBeTruthy();
    expect(within(region).queryByRole('link', { name: 'Add a key' })).toBeNull();
    expect(within(region).queryByRole('link', { name: 'Create a workspace' })).toBeNull();
    expect(within(region).getByRole('link', { name: 'Choose models' })).toBeTruthy();
  });

  it('when only the key for all workspaces is set, then the key step is done for the super admin', async () => {
    renderShell({
      user: root,
      workspaces: [acme],
      routes: {
        'GET /api/settings/openai_api_key': () =>
          answer(200, { key: 'openai_api_key', value: 'sk-…ment', scope: 'global' }),
      },
    });
    const region = await screen.findByRole('region', { name: 'Set up AI Content Tool' });
    expect(steps(region)[0]).toEqual(['Add the AI provider key (Done)', 'true']);
  });

  it('when every step is done, then no checklist shows', async () => {
    const calls = renderShell({
      user: root,
      workspaces: [acme, team],
      routes: {
        'GET /api/workspaces/1/settings/openai_api_key': () =>
          answer(200, { key: 'openai_api_key', value: 'sk-…abcd', scope: 'workspace' }),
        'GET /api/settings/default_text_model': () =>
          answer(200, { key: 'default_text_model', value: 'gpt-4o' }),
        'GET /api/users': () => answer(200, [root, newcomer]),
        'GET /api/prompts/default?workspaceId=1': () => answer(200, { id: 'p1', model: 'gpt-4o' }),
      },
    });
    expect(await screen.findByText('the screen')).toBeTruthy();
    // every answer the checklist waits for has been asked for, and answered
    const asked = ['/api/workspaces/1/settings/openai_api_key', '/api/settings/default_text_model'];
    await waitFor(() =>
      expect(calls.filter((call) => [...asked, '/api/users'].includes(call.url))).toHaveLength(3),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByRole('region', { name: 'Set up AI Content Tool' })).toBeNull();
  });

  it('when it shows, then it is a card in the page: it takes no focus and the screen stays usable', async () => {
    renderShell({ user: root, workspaces: [acme] });
    const screenText = await screen.findByText('the screen');
    const before = document.activeElement;
    const region = await screen.findByRole('region', { name: 'Set up AI Content Tool' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(before);
    expect(region.contains(document.activeElement)).toBe(false);
    expect(screenText.closest('[aria-hidden="true"], [inert]')).toBeNull();
    // reachable from the keyboard: its actions are ordinary buttons and links in the page
    const later = within(region).getByRole('button', { name: 'Later' });
    act(() => later.focus());
    expect(document.activeElement).toBe(later);
    expect(within(region).getByRole('heading', { name: 'Set up AI Content Tool' })).toBeTruthy();
  });

  it('when Later is chosen, then it closes for this session and the screen is there', async () => {
    renderShell({ user: root, workspaces: [acme] });
    const region = await screen.findByRole('region', { name: 'Set up AI Content Tool' });
    act(() => within(region).getByRole('button', { name: 'Later' }).click());
    expect(screen.queryByRole('region', { name: 'Set up AI Content Tool' })).toBeNull();
    expect(screen.getByText('the screen')).toBeTruthy();
    expect(sessionStorage.getItem(CHECKLIST_SEEN_KEY)).toBe('true');
    expect(localStorage.getItem(CHECKLIST_HIDDEN_KEY)).toBeNull();
  });

  it('when it is hidden, then it stays hidden on the next visit', async () => {
    renderShell({ user: root, workspaces: [acme] });
    const region = await screen.findByRole('region', { name: 'Set up AI Content Tool' });
    act(() => within(region).getByRole('button', { name: 'Hide checklist' }).click());
    expect(screen.queryByRole('region', { name: 'Set up AI Content Tool' })).toBeNull();
    expect(localStorage.getItem(CHECKLIST_HIDDEN_KEY)).toBe('true');

    cleanup();
    renderShell({ user: root, workspaces: [acme] });
    expect(await screen.findByText('the screen')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByRole('region', { name: 'Set up AI Content Tool' })).toBeNull();
  });

  it('when a member, or the admin of a workspace with a default prompt, opens the home screen, then there is no checklist', async () => {
    const calls = renderShell({
      user: buildUser({ id: 'a', workspaceRoles: { '1': 'admin' } }),
      workspaces: [acme],
      routes: {
        'GET /api/prompts/default?workspaceId=1': () => answer(200, { id: 'p1', model: 'gpt-4o' }),
      },
    });
    expect(await screen.findByText('the screen')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Set up AI Content Tool' })).toBeNull();
    expect(calls.some((call) => call.url === '/api/users')).toBe(false);
  });

  it('when the language is Dutch, then the checklist reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    renderShell({ user: root, workspaces: [acme] });
    const region = await screen.findByRole('region', { name: 'AI Content Tool instellen' });
    expect(within(region).getByText('0 van 5 klaar')).toBeTruthy();
    expect(within(region).getByText('Voeg de sleutel van de AI-aanbieder toe')).toBeTruthy();
    expect(within(region).getByRole('link', { name: 'Gebruikers toevoegen' })).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Checklist verbergen' })).toBeTruthy();
  });

  it('when the super admin is on another screen, then the checklist is not shown there', async () => {
    renderShell({ user: root, workspaces: [acme], route: '/stats' });
    expect(await screen.findByText('the screen')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Set up AI Content Tool' })).toBeNull();
  });
});

describe("a workspace admin's set-up checklist", () => {
  const admin = buildUser({ id: 'a', username: 'anna', workspaceRoles: { '1': 'admin' } });
  const member = buildUser({ id: 'm', username: 'mo', workspaceRoles: { '1': 'user' } });

  it('when their workspace has no default prompt, then the home screen lists key, default prompt and people with links', async () => {
    renderShell({ user: admin, workspaces: [acme] });
    const region = await screen.findByRole('region', { name: 'Set up Acme' });
    expect(within(region).getByText('0 of 3 done')).toBeTruthy();
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => [item.textContent?.split('(')[0]?.trim(), item.getAttribute('data-done')]),
    ).toEqual([
      ['Add the AI provider key', 'false'],
      ['Choose a default prompt', 'false'],
      ['Invite people', 'false'],
    ]);
    const link = (name: string) => within(region).getByRole('link', { name }).getAttribute('href');
    expect(link('Add a key')).toBe('/settings?tab=api-keys');
    expect(link('Open Prompts')).toBe('/prompts');
    expect(link('Add users')).toBe('/settings?tab=users');
    expect(within(region).queryByText(/default models/)).toBeNull();
  });

  it('when the key is set and a member was added, then only the default prompt is left', async () => {
    renderShell({
      user: admin,
      workspaces: [acme],
      routes: {
        'GET /api/workspaces/1/settings/openai_api_key': () =>
          answer(200, { key: 'openai_api_key', value: 'sk-…abcd', scope: 'global' }),
        'GET /api/users': () => answer(200, [admin, member]),
      },
    });
    const region = await screen.findByRole('region', { name: 'Set up Acme' });
    expect(within(region).getByText('2 of 3 done')).toBeTruthy();
    expect(
      within(region)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Open Prompts']);
  });

  it('when it is hidden, then it stays hidden for that workspace', async () => {
    renderShell({ user: admin, workspaces: [acme] });
    const region = await screen.findByRole('region', { name: 'Set up Acme' });
    act(() => within(region).getByRole('button', { name: 'Hide checklist' }).click());
    expect(screen.queryByRole('region', { name: 'Set up Acme' })).toBeNull();

    cleanup();
    renderShell({ user: admin, workspaces: [acme] });
    expect(await screen.findByText('the screen')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByRole('region', { name: 'Set up Acme' })).toBeNull();
  });

  it('when a member opens a workspace without a default prompt, then there is no checklist and no admin call', async () => {
    const calls = renderShell({ user: member, workspaces: [acme] });
    expect(await screen.findByText('the screen')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByRole('region', { name: /^Set up/ })).toBeNull();
    expect(calls.some((call) => call.url.startsWith('/api/prompts/default'))).toBe(false);
    expect(calls.some((call) => call.url === '/api/users')).toBe(false);
  });

  it('when the language is Dutch, then it reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    renderShell({ user: admin, workspaces: [acme] });
    const region = await screen.findByRole('region', { name: 'Acme instellen' });
    expect(within(region).getByText('Kies een standaardprompt')).toBeTruthy();
    expect(within(region).getByRole('link', { name: 'Prompts openen' })).toBeTruthy();
  });
});
