import '../../../test/setup';
import { act, screen } from '@testing-library/react';
import { buildUser } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { settingsServer, superAdmin, workspaceAdmin } from '../../../test/settings-api';

// SPEC §2 "Settings page": tabs by ?tab= (api-keys by default; workspaces for super admins
// only, others fall back to api-keys) and admins only.

const selectedTab = async () => {
  await screen.findByRole('tablist', { name: 'Settings sections' });
  return screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')
    ?.textContent;
};

beforeEach(() => localStorage.clear());

describe('the settings tabs', () => {
  it('when no tab is named, then API Keys is selected', async () => {
    settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings');
    expect(await selectedTab()).toBe('API Keys');
    expect(await screen.findByRole('heading', { name: 'Acme API Key' })).toBeTruthy();
  });

  it('when ?tab=users is opened, then the Users tab is selected', async () => {
    settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings?tab=users');
    expect(await selectedTab()).toBe('Users');
    expect(screen.getByRole('heading', { name: 'Add New User' })).toBeTruthy();
  });

  it('when a super admin opens ?tab=workspaces, then the Workspaces tab is selected', async () => {
    settingsServer({ me: superAdmin });
    renderAdmin('/settings?tab=workspaces');
    expect(await selectedTab()).toBe('Workspaces');
    expect(await screen.findByRole('table', { name: 'Workspaces' })).toBeTruthy();
  });

  it('when a workspace admin opens ?tab=workspaces, then API Keys shows and there is no Workspaces tab', async () => {
    settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings?tab=workspaces');
    expect(await selectedTab()).toBe('API Keys');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['API Keys', 'Users']);
    expect(screen.queryByRole('table', { name: 'Workspaces' })).toBeNull();
  });

  it('when an unknown tab is named, then API Keys is selected', async () => {
    settingsServer({ me: superAdmin });
    renderAdmin('/settings?tab=billing');
    expect(await selectedTab()).toBe('API Keys');
  });

  it('when a tab is clicked, then ?tab= names it', async () => {
    settingsServer({ me: superAdmin });
    renderAdmin('/settings');
    await selectedTab();
    act(() => screen.getByRole('tab', { name: 'Users' }).click());
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe(
      '/settings?tab=users',
    );
    expect(await selectedTab()).toBe('Users');
  });
});

describe('access to settings', () => {
  it('when the user is not an admin of the current workspace, then "Admin Access Required" shows instead', async () => {
    settingsServer({ me: buildUser({ workspaceRoles: { '1': 'user' } }) });
    renderAdmin('/settings');
    expect(await screen.findByText('Admin Access Required')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });
});
