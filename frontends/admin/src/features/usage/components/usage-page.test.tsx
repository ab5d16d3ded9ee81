import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UsageLimits, UsageSummary } from '@aict/contracts';
import { answer, buildUser, buildWorkspace, stubApi, type StubCall } from '@aict/web-kit/testing';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { buildPrompt } from '../../../test/prompts-api';
import { renderAdmin } from '../../../test/render-admin';

// /usage (issue 14): the month to date against the budget, the 80 % warning and the 100 %
// refusal text, cost by day (chart), by user, model and prompt, and the CSV export link.

const acme = buildWorkspace(1, 'Acme');
const admin = buildUser({ id: 'u1', username: 'ada', workspaceRoles: { '1': 'admin' } });
const member = buildUser({ id: 'u2', username: 'mo', workspaceRoles: { '1': 'user' } });

function buildSummary(overrides: Partial<UsageSummary> = {}): UsageSummary {
  return {
    workspaceId: 1,
    month: '2026-11',
    currency: 'USD',
    scope: 'workspace',
    spentMicros: 8_500_000,
    monthlyBudgetMicros: 10_000_000,
    userSpentMicros: 0,
    userCapMicros: null,
    warning: true,
    reached: false,
    byDay: [
      { key: '2026-11-02', costMicros: 5_000_000, calls: 3 },
      { key: '2026-11-03', costMicros: 3_500_000, calls: 2 },
    ],
    byUser: [{ key: 'mo', costMicros: 8_500_000, calls: 5 }],
    byModel: [{ key: 'gpt-4o', costMicros: 8_500_000, calls: 5 }],
    byPrompt: [{ key: '', costMicros: 8_500_000, calls: 5 }],
    ...overrides,
  };
}

const superAdmin = buildUser({ id: 'u0', username: 'root', isSuperAdmin: true });

function usageServer(user = admin, summary = buildSummary()) {
  const limits: UsageLimits = {
    workspaceId: 1,
    monthlyBudgetMicros: summary.monthlyBudgetMicros,
    requestsPerMinute: null,
    userCaps: {},
  };
  return stubApi({
    'GET /api/user': () => answer(200, user),
    'GET /api/user/workspaces': () => answer(200, [acme]),
    'GET /api/usage/summary?workspaceId=1': () => answer(200, summary),
    'GET /api/usage/limits?workspaceId=1': () => answer(200, limits),
    'PUT /api/usage/limits/budget?workspaceId=1': (call: StubCall) => {
      limits.monthlyBudgetMicros = (
        call.body as { monthlyBudgetMicros: number }
      ).monthlyBudgetMicros;
      return answer(200, limits);
    },
    'PUT /api/usage/limits/users/mo?workspaceId=1': (call: StubCall) => {
      const cap = (call.body as { monthlyCapMicros: number | null }).monthlyCapMicros;
      if (cap === null) delete limits.userCaps.mo;
      else limits.userCaps.mo = cap;
      return answer(200, limits);
    },
    'PUT /api/usage/limits/rate?workspaceId=1': (call: StubCall) => {
      limits.requestsPerMinute = (call.body as { requestsPerMinute: number }).requestsPerMinute;
      return answer(200, limits);
    },
  });
}

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});
afterEach(() => act(() => applyLanguage('en')));

describe('the usage screen', () => {
  it('when an admin opens it past 80 % of the budget, then the month, the warning, the tables and the CSV link show', async () => {
    usageServer();
    renderAdmin('/usage');

    expect(await screen.findByRole('heading', { name: 'Usage' })).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This workspace has used 80% of its monthly budget',
    );
    expect(screen.getByTestId('usage-spent').textContent).toBe('$8.50');
    expect(screen.getByText('of a monthly budget of $10.00')).toBeTruthy();
    expect(
      screen.getByRole('progressbar', { name: 'Budget used' }).getAttribute('aria-valuenow'),
    ).toBe('85');
    const byModel = screen.getByRole('table', { name: 'By model' });
    expect(within(byModel).getByText('gpt-4o')).toBeTruthy();
    expect(
      within(screen.getByRole('table', { name: 'By prompt template' })).getByText('No prompt'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/usage/export?workspaceId=1&month=2026-11',
    );
  });

  it('when the budget is reached, then the refusal text shows in Dutch too', async () => {
    usageServer(admin, buildSummary({ spentMicros: 10_000_000, reached: true }));
    act(() => applyLanguage('nl'));
    renderAdmin('/usage');

    expect(await screen.findByRole('heading', { name: 'Verbruik' })).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Deze workspace heeft het maandbudget bereikt',
    );
    expect(screen.getByRole('table', { name: 'Per model' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'CSV exporteren' })).toBeTruthy();
  });

  it('when the tables list users and prompts, then they are named, not shown by id', async () => {
    const tagline = buildPrompt({ id: 'p-tagline', name: 'Tagline' });
    stubApi({
      'GET /api/user': () => answer(200, admin),
      'GET /api/user/workspaces': () => answer(200, [acme]),
      'GET /api/usage/summary?workspaceId=1': () =>
        answer(
          200,
          buildSummary({
            byUser: [
              { key: 'u2', costMicros: 5_000_000, calls: 3 },
              { key: 'u-gone', costMicros: 3_500_000, calls: 2 },
            ],
            byPrompt: [{ key: 'p-tagline', costMicros: 8_500_000, calls: 5 }],
          }),
        ),
      'GET /api/usage/limits?workspaceId=1': () =>
        answer(200, {
          workspaceId: 1,
          monthlyBudgetMicros: 10_000_000,
          requestsPerMinute: null,
          userCaps: {},
        }),
      'GET /api/users': () => answer(200, [admin, member]),
      'GET /api/prompts?workspaceId=1': () => answer(200, [tagline]),
    });
    renderAdmin('/usage');

    const byUser = await screen.findByRole('table', { name: 'By user' });
    expect(await within(byUser).findByText('mo')).toBeTruthy();
    // A user no longer listed (removed since) keeps their id.
    expect(within(byUser).getByText('u-gone')).toBeTruthy();
    const byPrompt = screen.getByRole('table', { name: 'By prompt template' });
    expect(await within(byPrompt).findByText('Tagline')).toBeTruthy();
    expect(within(byPrompt).queryByText('p-tagline')).toBeNull();
  });

  it('when a member opens it, then the admin-only card shows instead', async () => {
    usageServer(member);
    renderAdmin('/usage');

    expect(await screen.findByText('Admin Access Required')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Usage' })).toBeNull();
  });

  it('when the super admin sets a budget in dollars, then it is sent in micro-dollars', async () => {
    const calls = usageServer(superAdmin);
    renderAdmin('/usage');

    const input = (await screen.findByLabelText('Monthly budget (USD)')) as HTMLInputElement;
    expect(input.value).toBe('10');
    fireEvent.change(input, { target: { value: '25.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save budget' }));

    expect(await screen.findByText('Limit saved')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      monthlyBudgetMicros: 25_500_000,
    });
  });

  it('when a workspace admin sets the rate limit in Dutch, then it is saved and the budget stays read-only', async () => {
    const calls = usageServer(admin);
    act(() => applyLanguage('nl'));
    renderAdmin('/usage');

    const budget = (await screen.findByLabelText('Maandbudget (USD)')) as HTMLInputElement;
    expect(budget.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Budget opslaan' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Generaties per gebruiker per minuut'), {
      target: { value: '12' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Limiet opslaan' }));

    expect(await screen.findByText('Limiet opgeslagen')).toBeTruthy();
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ requestsPerMinute: 12 }),
    );
    fireEvent.change(screen.getByLabelText('Generaties per gebruiker per minuut'), {
      target: { value: 'veel' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Limiet opslaan' }));
    expect(
      await screen.findByText('Vul een positief getal in, of laat het veld leeg'),
    ).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  });

  it('when an admin caps a user in dollars, then it is sent in micro-dollars and listed with a way to remove it', async () => {
    const calls = usageServer(admin);
    renderAdmin('/usage');

    expect(await screen.findByText('No user has a cap.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('User'), { target: { value: 'mo' } });
    fireEvent.change(screen.getByLabelText('Monthly cap (USD)'), { target: { value: '2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save cap' }));

    await waitFor(() =>
      expect(calls.find((c) => c.url.includes('/limits/users/'))?.body).toEqual({
        monthlyCapMicros: 2_500_000,
      }),
    );
    const list = await screen.findByRole('list', { name: 'Monthly caps per user' });
    expect(list.textContent).toContain('mo: $2.50');
    fireEvent.click(within(list).getByRole('button', { name: 'Remove the cap of mo' }));
    expect(await screen.findByText('No user has a cap.')).toBeTruthy();
    expect(calls.filter((c) => c.url.includes('/limits/users/')).at(-1)?.body).toEqual({
      monthlyCapMicros: null,
    });
  });

  it('when a Dutch admin saves a cap without a user, then nothing is sent and the form says so', async () => {
    const calls = usageServer(admin);
    act(() => applyLanguage('nl'));
    renderAdmin('/usage');

    expect(await screen.findByText('Geen enkele gebruiker heeft een limiet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Maandlimiet (USD)'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Limiet instellen' }));

    expect(await screen.findByText('Kies een gebruiker')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });
});
