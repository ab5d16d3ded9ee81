import '../../../test/setup';
import { act, screen, within } from '@testing-library/react';
import type { PromptResultsResponse } from '@aict/contracts';
import { applyLanguage } from '@aict/web-kit';
import { answer } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { admin, buildPrompt, member, promptsServer } from '../../../test/prompts-api';

// Issue 18: the Results card of the edit tab, beside the versions: per version the runs, the
// share approved and the cost per approved item; per user their runs and approvals.

beforeEach(() => localStorage.clear());

const RESULTS: PromptResultsResponse = {
  promptId: 'p1',
  workspaceId: 1,
  currentVersion: 3,
  currency: 'USD',
  versions: [
    {
      version: 3,
      runs: 4,
      approved: 1,
      approvedShare: 0.25,
      costMicros: 2_500_000,
      costPerApprovedMicros: 2_500_000,
    },
    {
      version: 1,
      runs: 2,
      approved: 0,
      approvedShare: 0,
      costMicros: null,
      costPerApprovedMicros: null,
    },
  ],
  users: [
    { userId: 'u-eve', runs: 5, approved: 1 },
    { userId: 'admin', runs: 1, approved: 0 },
  ],
};

function server(results: unknown = RESULTS, me = admin) {
  return promptsServer({
    me,
    prompts: [buildPrompt({ id: 'p1', name: 'Blog post', userId: me.id })],
    routes: {
      'GET /api/users': () =>
        answer(200, [
          {
            id: 'u-eve',
            username: 'eve editor',
            email: 'eve@example.com',
            isSuperAdmin: false,
            workspaceRoles: { '1': 'user' },
          },
        ]),
      'GET /api/prompts/p1/results?workspaceId=1': () =>
        results === 500 ? answer(500, 'boom') : answer(200, results),
    },
  });
}

async function openEditTab(tab = 'Edit Prompt') {
  renderAdmin('/prompts/p1');
  await screen.findByRole('heading', { level: 1, name: 'Blog post' });
  act(() => screen.getByRole('tab', { name: tab }).click());
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      Array.from(row.children).map((cell) => cell.textContent?.replace(/\u00a0/g, ' ')),
    );

describe('the Results card', () => {
  it('when an admin opens the edit tab, then the results show per version (current marked, cost per approved item, unknown cost said so) and per user by name', async () => {
    server();
    await openEditTab();

    const byVersion = await screen.findByRole('table', { name: 'Results per version' });
    expect(rowsOf(byVersion)).toEqual([
      ['Version 3Current', '4', '1', '25%', '$2.50', '$2.50'],
      ['Version 1', '2', '0', '0%', 'Not known', 'Not known'],
    ]);
    const byUser = await screen.findByRole('table', { name: 'Results per user' });
    await within(byUser).findByText('eve editor');
    expect(rowsOf(byUser)).toEqual([
      ['eve editor', '5', '1'],
      ['You', '1', '0'],
    ]);
  });

  it('when nobody has run the prompt yet, then the card says so', async () => {
    server({
      ...RESULTS,
      currentVersion: 1,
      versions: [{ ...RESULTS.versions[1]!, runs: 0 }],
      users: [],
    });
    await openEditTab();

    expect(
      await screen.findByText('This prompt has not been run since versions are recorded.'),
    ).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Results per user' })).toBeNull();
  });

  it('when the results cannot be loaded, then the card says so and the rest of the page works', async () => {
    server(500);
    await openEditTab();

    const alert = await screen.findByText('Failed to load the results');
    expect(alert.getAttribute('role')).toBe('alert');
    expect((screen.getByLabelText('Template') as HTMLTextAreaElement).value).toContain('Write');
  });

  it('when the page is in Dutch, then the card reads in Dutch, with Dutch money', async () => {
    server();
    act(() => applyLanguage('nl'));
    try {
      await openEditTab('Prompt bewerken');
      const byVersion = await screen.findByRole('table', { name: 'Resultaten per versie' });
      expect(
        within(byVersion).getByRole('columnheader', { name: 'Aandeel goedgekeurd' }),
      ).toBeTruthy();
      expect(rowsOf(byVersion)[0]).toEqual([
        'Versie 3Huidig',
        '4',
        '1',
        '25%',
        'US$ 2,50',
        'US$ 2,50',
      ]);
      expect(rowsOf(byVersion)[1]?.[4]).toBe('Onbekend');
      expect(screen.getByRole('table', { name: 'Resultaten per gebruiker' })).toBeTruthy();
    } finally {
      act(() => applyLanguage('en'));
    }
  });

  it('when a member who is not an admin opens the prompt, then no results are shown or asked for', async () => {
    const { calls } = server(RESULTS, member);
    renderAdmin('/prompts/p1');
    await screen.findByRole('heading', { level: 1, name: 'Blog post' });
    const editTab = screen.queryByRole('tab', { name: 'Edit Prompt' });
    if (editTab) act(() => editTab.click());

    expect(screen.queryByRole('table', { name: 'Results per version' })).toBeNull();
    expect(calls.some((call) => call.url.includes('/results'))).toBe(false);
  });
});
