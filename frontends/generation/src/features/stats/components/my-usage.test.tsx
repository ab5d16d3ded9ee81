import '../../../test/setup';
import { act, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import { json, member, renderGeneration, stubGenerationApi } from '../../../test/generation-api';

// Issue 14: a member sees their own month on /stats (spend, generations, cap if one is set),
// read from GET /api/usage/me, which answers the caller's own figures only.

const WAIT = { timeout: 5_000 };

const mine = (overrides: Record<string, unknown> = {}) => ({
  workspaceId: 1,
  month: '2026-11',
  currency: 'USD',
  spentMicros: 1_250_000,
  generations: 7,
  capMicros: 5_000_000,
  ...overrides,
});

function stub(answer = json(mine())) {
  return stubGenerationApi(member, {
    'GET /api/stats?workspaceId=1': () =>
      json({ totalPrompts: 1, textContent: 2, imagesGenerated: 3 }),
    'GET /api/usage/me?workspaceId=1': () => answer,
  });
}

const section = async () =>
  (await screen.findByRole('heading', { name: 'Your usage this month (2026-11)' }, WAIT))
    .parentElement!;

afterEach(() => act(() => applyLanguage('en')));

describe('the member’s own month on /stats', () => {
  it('when the member has spent and generated this month, then their spend, generations and cap show', async () => {
    stub();
    renderGeneration('/stats');
    const mine = within(await section());
    expect(mine.getByLabelText('Your spend: $1.25')).toBeTruthy();
    expect(mine.getByLabelText('Your generations: 7')).toBeTruthy();
    expect(mine.getByLabelText('Your monthly cap: $5.00')).toBeTruthy();
    expect(mine.getByRole('progressbar', { name: 'Cap used' }).getAttribute('aria-valuenow')).toBe(
      '25',
    );
  });

  it('when no cap is set, then the cap reads "No cap" and no meter shows', async () => {
    stub(json(mine({ capMicros: null, spentMicros: 0, generations: 0 })));
    renderGeneration('/stats');
    const noCap = within(await section());
    expect(noCap.getByLabelText('Your monthly cap: No cap')).toBeTruthy();
    expect(noCap.getByLabelText('Your spend: $0.00')).toBeTruthy();
    expect(noCap.queryByRole('progressbar')).toBeNull();
  });

  it('when the figures cannot be read, then the section stays away and the counts still show', async () => {
    const calls = stub(json({ code: 'AUTH.FORBIDDEN', message: 'Forbidden' }, 403));
    renderGeneration('/stats');
    expect(await screen.findByLabelText('Total Prompts: 1', {}, WAIT)).toBeTruthy();
    await waitFor(
      () => expect(calls.some((call) => call.url.startsWith('/api/usage/me'))).toBe(true),
      WAIT,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('heading', { name: /Your usage this month/ })).toBeNull();
  });

  it('when the interface is Dutch, then the section reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    stub();
    renderGeneration('/stats');
    const heading = await screen.findByRole(
      'heading',
      { name: 'Jouw verbruik deze maand (2026-11)' },
      WAIT,
    );
    const mine = within(heading.parentElement!);
    expect(mine.getByLabelText('Jouw generaties: 7')).toBeTruthy();
    expect(mine.getByLabelText(/^Jouw maandlimiet: /)).toBeTruthy();
  });
});
