import '../../test/setup';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import {
  answer,
  buildUser,
  buildWorkspace,
  renderWithProviders,
  stubApi,
} from '@aict/web-kit/testing';
import { AppLayout } from './app-layout';

// SPEC §2 "Shell and sidebar": items, the admin section by role, the user block, the drawer
// under 768 px, and the workspace selector's states.

const acme = buildWorkspace(1, 'Acme');
const beta = buildWorkspace(2, 'Beta');

function stubViewport(width: number) {
  window.matchMedia = ((query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    return {
      matches: max ? width <= Number(max[1]) : false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
  }) as unknown as typeof window.matchMedia;
}

function renderLayout({
  user = buildUser(),
  workspaces = [acme, beta],
  route = '/stats',
}: {
  user?: ReturnType<typeof buildUser>;
  workspaces?: ReturnType<typeof buildWorkspace>[];
  route?: string;
} = {}) {
  stubApi({
    'GET /api/user': () => answer(200, user),
    'GET /api/user/workspaces': () => answer(200, workspaces),
  });
  return renderWithProviders(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="*" element={<p>screen</p>} />
      </Route>
    </Routes>,
    { route },
  );
}

beforeEach(() => {
  localStorage.clear();
  stubViewport(1440);
});

describe('the sidebar', () => {
  it('when the user is an admin of the current workspace, then the Admin section shows Prompts and Settings', async () => {
    renderLayout({ user: buildUser({ workspaceRoles: { '1': 'admin' } }) });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Acme GPT' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Text Generation' }).getAttribute('href')).toBe(
      '/text-generation',
    );
    expect(within(nav).getByRole('link', { name: 'Image Generation' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Stats' })).toBeTruthy();
    expect(within(nav).getByRole('heading', { name: 'Admin' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Prompts' }).getAttribute('href')).toBe(
      '/prompts',
    );
    expect(within(nav).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(
      '/settings',
    );
    expect(within(nav).getByRole('link', { name: 'Audit log' }).getAttribute('href')).toBe(
      '/audit',
    );
  });

  it('when the user is only a user of the current workspace, then there is no Admin section', async () => {
    localStorage.setItem('currentWorkspaceId', '2');
    renderLayout({ user: buildUser({ workspaceRoles: { '1': 'admin', '2': 'user' } }) });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: 'Beta GPT' });
    expect(within(nav).queryByRole('link', { name: 'Settings' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Prompts' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Audit log' })).toBeNull();
  });

  it('when a super admin has no role in the workspace, then the Admin section shows', async () => {
    renderLayout({ user: buildUser({ isSuperAdmin: true, workspaceRoles: {} }) });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Settings' })).toBeTruthy();
  });

  it('when the user switches to a workspace where they are a user, then the Admin section goes', async () => {
    renderLayout({ user: buildUser({ workspaceRoles: { '1': 'admin', '2': 'user' } }) });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: 'Settings' });
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Workspace: Acme' })));
    act(() => fireEvent.click(screen.getByRole('option', { name: 'Beta' })));
    await within(nav).findByRole('link', { name: 'Beta GPT' });
    expect(within(nav).queryByRole('link', { name: 'Settings' })).toBeNull();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('2');
  });

  it('when signed in, then the user block shows initials, name and e-mail, and the brand reads "{workspace} AI"', async () => {
    renderLayout({ user: buildUser({ username: 'jane doe', email: 'jane@example.com' }) });
    expect(await screen.findByText('Acme AI')).toBeTruthy();
    expect(screen.getByText('JD')).toBeTruthy();
    expect(screen.getByText('jane doe')).toBeTruthy();
    expect(screen.getByText('jane@example.com')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Switch to (dark|light) theme/ })).toBeTruthy();
  });
});

describe('the theme and long names', () => {
  it('when a theme was picked, then "Use system theme" goes back to following the system', async () => {
    localStorage.setItem('theme', 'dark');
    renderLayout();
    fireEvent.click(await screen.findByRole('button', { name: 'Use system theme' }));
    expect(localStorage.getItem('theme')).toBe('system');
    expect(screen.queryByRole('button', { name: 'Use system theme' })).toBeNull();
    expect(screen.getByRole('button', { name: /Switch to (dark|light) theme/ })).toBeTruthy();
  });

  it('when the workspace name is too long to show, then its full text is in the title of the brand and the selector', async () => {
    const long = buildWorkspace(1, 'The Very Long Name Of The International Marketing Department');
    stubViewport(375);
    renderLayout({ workspaces: [long] });
    const brand = await screen.findByText(`${long.name} AI`);
    expect(brand.getAttribute('title')).toBe(`${long.name} AI`);
    expect(screen.getByRole('button', { name: /^Workspace:/ }).getAttribute('title')).toBe(
      long.name,
    );
  });
});

describe('the workspace selector', () => {
  it('when the user has no workspaces, then it reads "No workspaces"', async () => {
    renderLayout({ workspaces: [] });
    const button = await screen.findByRole('button', { name: 'Workspace: No workspaces' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('when the user has workspaces, then its menu, "Select workspace", lists each as an option', async () => {
    renderLayout();
    const button = await screen.findByRole('button', { name: 'Workspace: Acme' });
    act(() => fireEvent.click(button));
    const menu = await screen.findByRole('listbox', { name: 'Select workspace' });
    expect(within(menu).getAllByRole('option')).toEqual([
      within(menu).getByRole('option', { name: 'Acme', selected: true }),
      within(menu).getByRole('option', { name: 'Beta', selected: false }),
    ]);
  });
});

describe('under 768 px', () => {
  it('when the menu button is pressed, then the drawer opens, and Escape closes it', async () => {
    stubViewport(375);
    renderLayout();
    expect(await screen.findByText('Acme AI')).toBeTruthy(); // header title on narrow screens
    const menu = screen.getByRole('button', { name: 'Open menu' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();

    act(() => menu.click());
    const drawer = screen.getByRole('dialog', { name: 'Navigation' });
    expect(within(drawer).getByRole('navigation', { name: 'Main' })).toBeTruthy();

    act(() => {
      drawer.dispatchEvent(new Event('cancel', { cancelable: true }));
    });
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('when a link in the drawer is followed, then the drawer closes', async () => {
    stubViewport(375);
    renderLayout();
    await screen.findByText('Acme AI');
    act(() => screen.getByRole('button', { name: 'Open menu' }).click());
    const drawer = screen.getByRole('dialog', { name: 'Navigation' });
    act(() => within(drawer).getByRole('link', { name: 'Text Generation' }).click());
    expect(screen.queryByRole('dialog', { name: 'Navigation' })).toBeNull();
  });
});
