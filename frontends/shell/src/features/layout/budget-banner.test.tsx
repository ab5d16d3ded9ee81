import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { applyLanguage } from '@aict/web-kit';
import {
  answer,
  buildUser,
  buildWorkspace,
  renderWithProviders,
  stubApi,
  type StubCall,
} from '@aict/web-kit/testing';
import { AppLayout } from './app-layout';

// Issue 14: the shell warns the current workspace's admins at 80 % of the monthly budget
// and more strongly at 100 %, links to /usage, and can be dismissed for the session.

const MONTH = '2026-11';
const status = (spentMicros: number, monthlyBudgetMicros: number | null = 100_000_000) => ({
  workspaceId: 1,
  month: MONTH,
  currency: 'USD',
  spentMicros,
  monthlyBudgetMicros,
  warning: monthlyBudgetMicros !== null && spentMicros >= monthlyBudgetMicros * 0.8,
  reached: monthlyBudgetMicros !== null && spentMicros >= monthlyBudgetMicros,
});

function renderLayout({
  user = buildUser(),
  budget = status(0),
}: { user?: ReturnType<typeof buildUser>; budget?: ReturnType<typeof status> } = {}) {
  const calls: StubCall[] = stubApi({
    'GET /api/user': () => answer(200, user),
    'GET /api/user/workspaces': () => answer(200, [buildWorkspace(1, 'Acme')]),
    'GET /api/usage/budget-status?workspaceId=1': () => answer(200, budget),
  });
  const view = renderWithProviders(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="/usage" element={<p>usage screen</p>} />
        <Route path="*" element={<p>screen</p>} />
      </Route>
    </Routes>,
    { route: '/stats' },
  );
  return { calls, ...view };
}

/** The shared machine can be slow: wait longer than the default second. */
const WAIT = { timeout: 5_000 };

const budgetCalls = (calls: StubCall[]) =>
  calls.filter((call) => call.url.startsWith('/api/usage/budget-status'));

/** Waits until the banner has asked for the budget and the answer is rendered. */
async function answered(calls: StubCall[]) {
  await waitFor(() => expect(budgetCalls(calls)).toHaveLength(1), WAIT);
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
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

describe('the budget banner', () => {
  it('when an admin’s workspace has used 85 % of its budget, then a warning with a link to /usage shows', async () => {
    renderLayout({ budget: status(85_000_000) });
    const banner = await screen.findByRole('status', {}, WAIT);
    expect(banner.textContent).toContain('This workspace has used 85% of its monthly budget.');
    fireEvent.click(within(banner).getByRole('link', { name: 'View usage' }));
    expect(await screen.findByText('usage screen', {}, WAIT)).toBeTruthy();
    // /usage states it at its top already: the banner steps aside there.
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('when the budget is reached, then the stronger banner shows as an alert', async () => {
    renderLayout({ budget: status(100_000_000) });
    const banner = await screen.findByRole('alert', {}, WAIT);
    expect(banner.textContent).toContain('This workspace has reached its monthly budget');
    expect(banner.getAttribute('data-level')).toBe('reached');
  });

  it('when under 80 % or without a budget, then no banner shows', async () => {
    const { calls } = renderLayout({ budget: status(79_000_000) });
    await answered(calls);
    expect(screen.queryByText(/monthly budget/)).toBeNull();
  });

  it('when the admin dismisses it, then it stays away for the session, even after a new render', async () => {
    const first = renderLayout({ budget: status(90_000_000) });
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }, WAIT));
    expect(screen.queryByText(/90% of its monthly budget/)).toBeNull();
    first.unmount();

    const { calls } = renderLayout({ budget: status(90_000_000) });
    await answered(calls);
    expect(screen.queryByText(/90% of its monthly budget/)).toBeNull();
  });

  it('when a dismissed warning becomes reached, then the stronger banner shows again', async () => {
    const first = renderLayout({ budget: status(90_000_000) });
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }, WAIT));
    first.unmount();
    renderLayout({ budget: status(100_000_000) });
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toContain('reached');
  });

  it('when the user is a member (not an admin), then the budget is not even asked for', async () => {
    const { calls } = renderLayout({
      user: buildUser({ workspaceRoles: { '1': 'user' } }),
      budget: status(100_000_000),
    });
    // the workspace is chosen (and the role known) before the check
    expect(await screen.findByRole('button', { name: /Acme/ }, WAIT)).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(budgetCalls(calls)).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the interface is Dutch, then the banner reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    renderLayout({ budget: status(80_000_000) });
    const banner = await screen.findByRole('status', {}, WAIT);
    expect(banner.textContent).toContain('Deze workspace heeft 80% van het maandbudget gebruikt.');
    expect(within(banner).getByRole('link', { name: 'Verbruik bekijken' })).toBeTruthy();
    expect(within(banner).getByRole('button', { name: 'Sluiten' })).toBeTruthy();
  });
});
