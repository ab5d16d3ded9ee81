import '../../test/setup';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import {
  answer,
  buildUser,
  buildWorkspace,
  renderWithProviders,
  stubApi,
} from '@aict/web-kit/testing';
import { WorkspaceSelector } from './workspace-selector';

// The header's workspace switcher: a menu with logos or initials, a search field when the
// list is long, and the keyboard (arrows, Home/End, Enter, Escape).

const names = ['Acme', 'Beta Labs', 'Contoso', 'Delta Team', 'Echo Media', 'Foxtrot'];
const many = names.map((name, index) => buildWorkspace(index + 1, name));

function renderSwitcher(workspaces = many) {
  stubApi({
    'GET /api/user': () => answer(200, buildUser()),
    'GET /api/user/workspaces': () => answer(200, workspaces),
  });
  localStorage.setItem('currentWorkspaceId', '1');
  return renderWithProviders(<WorkspaceSelector />);
}

async function openMenu(name = 'Workspace: Acme') {
  const button = await screen.findByRole('button', { name });
  act(() => fireEvent.click(button));
  return screen.getByRole('listbox', { name: 'Select workspace' });
}

const key = (target: Element, k: string) => act(() => fireEvent.keyDown(target, { key: k }));
const active = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('option')
    .find((option) => option.getAttribute('data-active') === 'true');

beforeEach(() => {
  localStorage.clear();
  act(() => applyLanguage('en'));
});
afterEach(() => act(() => applyLanguage('en')));

describe('the workspace switcher', () => {
  it('when it opens, then each workspace shows its logo or initials and the current one is checked', async () => {
    const withLogo = { ...many[1]!, logoUrl: '/api/workspaces/2/logo?v=1' };
    renderSwitcher([many[0]!, withLogo]);
    const menu = await openMenu();
    const [acme, beta] = within(menu).getAllByRole('option');
    expect(acme!.textContent).toBe('AAcme');
    expect(acme!.getAttribute('aria-selected')).toBe('true');
    expect(beta!.querySelector('img')?.getAttribute('src')).toBe('/api/workspaces/2/logo?v=1');
    expect(beta!.getAttribute('aria-selected')).toBe('false');
  });

  it('when a search is typed, then only matching workspaces are listed (any case), and ArrowDown then Enter switches to the second', async () => {
    renderSwitcher();
    const menu = await openMenu();
    const search = screen.getByRole('combobox', { name: 'Search workspaces' });
    expect(document.activeElement).toBe(search);
    act(() => fireEvent.change(search, { target: { value: 'TA' } }));
    expect(
      within(menu)
        .getAllByRole('option')
        .map((o) => o.getAttribute('title')),
    ).toEqual(['Beta Labs', 'Delta Team']);
    key(search, 'ArrowDown');
    expect(search.getAttribute('aria-activedescendant')).toBe(active(menu)!.id);
    expect(active(menu)!.getAttribute('title')).toBe('Delta Team');
    key(search, 'Enter');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('4');
    expect(await screen.findByRole('button', { name: 'Workspace: Delta Team' })).toBeTruthy();
  });

  it('when nothing matches, then it says so', async () => {
    renderSwitcher();
    await openMenu();
    act(() =>
      fireEvent.change(screen.getByRole('combobox', { name: 'Search workspaces' }), {
        target: { value: 'zzz' },
      }),
    );
    expect(screen.getByText('No workspace matches')).toBeTruthy();
  });

  it('when there are few workspaces, then there is no search and the arrow keys, Home and End move through the list', async () => {
    renderSwitcher(many.slice(0, 3));
    const menu = await openMenu();
    expect(screen.queryByRole('combobox', { name: 'Search workspaces' })).toBeNull();
    expect(document.activeElement).toBe(menu);
    expect(active(menu)!.getAttribute('title')).toBe('Acme'); // starts at the current one
    key(menu, 'ArrowUp'); // wraps round
    expect(active(menu)!.getAttribute('title')).toBe('Contoso');
    key(menu, 'Home');
    expect(active(menu)!.getAttribute('title')).toBe('Acme');
    key(menu, 'End');
    key(menu, 'ArrowDown');
    key(menu, 'ArrowDown');
    expect(active(menu)!.getAttribute('title')).toBe('Beta Labs');
    key(menu, 'Enter');
    expect(localStorage.getItem('currentWorkspaceId')).toBe('2');
  });

  it('when Escape is pressed, then the menu closes and the workspace stays', async () => {
    renderSwitcher();
    const menu = await openMenu();
    key(menu, 'Escape');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(localStorage.getItem('currentWorkspaceId')).toBe('1');
  });

  it('when the language is Dutch, then the menu reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    renderSwitcher();
    const button = await screen.findByRole('button', { name: 'Werkruimte: Acme' });
    act(() => fireEvent.click(button));
    expect(screen.getByRole('listbox', { name: 'Kies een werkruimte' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Werkruimtes zoeken' })).toBeTruthy();
  });
});
