import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UsageOverview, UsageSummary } from '@aict/contracts';
import { answer, buildUser, buildWorkspace, stubApi, type StubCall } from '@aict/web-kit/testing';
import { applyLanguage } from '@aict/web-kit';
import { renderAdmin } from '../../../test/render-admin';

// Issue 14: on /usage the super admin can compare every workspace side by side: one row per
// workspace with this month's spend, budget and % used, the highest spend first.

const WAIT = { timeout: 5_000 };
const workspaces = [
  buildWorkspace(1, 'Acme'),
  buildWorkspace(2, 'Beta'),
  buildWorkspace(3, 'Gamma'),
];
const superAdmin = buildUser({
  id: 'u0',
  username: 'root',
  isSuperAdmin: true,
  workspaceRoles: {},
});

const overview: UsageOverview = {
  month: '2026-11',
  currency: 'USD',
  workspaces: [
    { workspaceId: 2, spentMicros: 12_000_000, monthlyBudgetMicros: 10_000_000, usedPercent: 120 },
    { workspaceId: 1, spentMicros: 8_500_000, monthlyBudgetMicros: 10_000_000, usedPercent: 85 },
    { workspaceId: 3, spentMicros: 0, monthlyBudgetMicros: null, usedPercent: null },
  ],
};

const summary = (workspaceId: number): UsageSummary => ({
  workspaceId,
  month: '2026-11',
  currency: 'USD',
  scope: 'workspace',
  spentMicros: 12_000_000,
  monthlyBudgetMicros: 10_000_000,
  userSpentMicros: 0,
  userCapMicros: null,
  warning: true,
  reached: true,
  byDay: [],
  byUser: [],
  byModel: [],
  byPrompt: [],
});

function server(list = workspaces) {
  const limits = (workspaceId: number) => ({
    workspaceId,
    monthlyBudgetMicros: 10_000_000,
    requestsPerMinute: null,
    userCaps: {},
  });
  return stubApi({
    'GET /api/user': () => answer(200, superAdmin),
    'GET /api/user/workspaces': () => answer(200, list),
    'GET /api/usage/workspaces?ids=1%2C2%2C3': () => answer(200, overview),
    'GET /api/usage/workspaces?ids=1,2,3': () => answer(200, overview),
    'GET /api/usage/summary?workspaceId=1': () => answer(200, summary(1)),
    'GET /api/usage/summary?workspaceId=2': () => answer(200, summary(2)),
    'GET /api/usage/limits?workspaceId=1': () => answer(200, limits(1)),
    'GET /api/usage/limits?workspaceId=2': () => answer(200, limits(2)),
  });
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

beforeEach(() => localStorage.clear());
afterEach(() => act(() => applyLanguage('en')));

describe('all workspaces side by side on /usage', () => {
  it('when the super admin chooses All workspaces, then each workspace’s spend, budget and % used show, the highest spend first', async () => {
    const calls: StubCall[] = server();
    renderAdmin('/usage');
    fireEvent.click(await screen.findByRole('radio', { name: 'All workspaces' }, WAIT));

    const table = await screen.findByRole('table', { name: 'Spend per workspace' }, WAIT);
    expect(rowsOf(table)).toEqual([
      ['Beta', '$12.00', '$10.00', '120%'],
      ['Acme', '$8.50', '$10.00', '85%'],
      ['Gamma', '$0.00', 'No budget', '–'],
    ]);
    expect(screen.getByText('All workspaces (2026-11)')).toBeTruthy();
    // one request for all of them: the ids of the workspace list
    const asked = calls.filter((call) => call.url.startsWith('/api/usage/workspaces'));
    expect(asked).toHaveLength(1);
    expect(decodeURIComponent(asked[0]!.url)).toBe('/api/usage/workspaces?ids=1,2,3');
  });

  it('when the super admin opens a workspace from the table, then that workspace’s month shows', async () => {
    server();
    renderAdmin('/usage');
    fireEvent.click(await screen.findByRole('radio', { name: 'All workspaces' }, WAIT));
    const table = await screen.findByRole('table', { name: 'Spend per workspace' }, WAIT);
    fireEvent.click(within(table).getByRole('button', { name: 'Beta' }));

    await waitFor(
      () =>
        expect(screen.getByRole('radio', { name: 'This workspace' })).toHaveProperty(
          'checked',
          true,
        ),
      WAIT,
    );
    expect(
      await screen.findByText('This workspace has reached its monthly budget', {}, WAIT),
    ).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Spend per workspace' })).toBeNull();
  });

  it('when the interface is Dutch, then the side by side view reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    server();
    renderAdmin('/usage');
    fireEvent.click(await screen.findByRole('radio', { name: 'Alle workspaces' }, WAIT));
    const table = await screen.findByRole('table', { name: 'Uitgaven per workspace' }, WAIT);
    expect(within(table).getByRole('columnheader', { name: 'Gebruikt' })).toBeTruthy();
    expect(within(table).getByText('Geen budget')).toBeTruthy();
  });

  it('when a workspace admin opens /usage, then there is no choice of all workspaces', async () => {
    const calls = stubApi({
      'GET /api/user': () => answer(200, buildUser({ id: 'u1', workspaceRoles: { '1': 'admin' } })),
      'GET /api/user/workspaces': () => answer(200, [workspaces[0]]),
      'GET /api/usage/summary?workspaceId=1': () => answer(200, summary(1)),
      'GET /api/usage/limits?workspaceId=1': () =>
        answer(200, {
          workspaceId: 1,
          monthlyBudgetMicros: 10_000_000,
          requestsPerMinute: null,
          userCaps: {},
        }),
    });
    renderAdmin('/usage');
    expect(
      await screen.findByText('This workspace has reached its monthly budget', {}, WAIT),
    ).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'All workspaces' })).toBeNull();
    expect(calls.some((call) => call.url.startsWith('/api/usage/workspaces'))).toBe(false);
  });
});
