import '../../../test/setup';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { PromptVersion } from '@aict/contracts';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { answer, type StubCall } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { admin, buildPrompt, member, promptsServer, writes } from '../../../test/prompts-api';

// Issue 18: the Versions card of the edit tab lists the kept versions, shows the chosen
// version's template against the current one line by line, and restores it after a
// confirmation; the form then shows the restored text.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function version(n: number, template: string, overrides: Partial<PromptVersion> = {}) {
  return {
    version: n,
    editedBy: 'admin',
    editedAt: minutesAgo(60 * (3 - n)),
    name: 'Blog post',
    description: 'A prompt for tests',
    template,
    category: 'Marketing' as const,
    contentType: 'text' as const,
    model: 'gpt-4o',
    ...overrides,
  };
}

const OLD = 'Write about {topic}\nKeep it short.';
const CURRENT = 'Write about {topic}\nUse a friendly tone.';

function server(routes: Record<string, (call: StubCall) => ReturnType<typeof answer>> = {}) {
  let versions = [
    version(2, CURRENT, { editedBy: 'u-eve' }),
    version(1, OLD, { name: 'Old blog post', model: 'gpt-4-turbo' }),
  ];
  const stub = promptsServer({
    me: admin,
    prompts: [buildPrompt({ id: 'p1', name: 'Blog post', template: CURRENT })],
    routes: {
      'GET /api/users': () =>
        answer(200, [
          {
            id: 'u-eve',
            username: 'eve editor',
            email: 'eve@example.com',
            isSuperAdmin: false,
            workspaceRoles: { '1': 'admin' },
          },
        ]),
      'GET /api/prompts/p1/versions?workspaceId=1': () =>
        answer(200, { current: versions[0]!.version, versions }),
      'POST /api/prompts/p1/versions/1/restore': () => {
        const restored = buildPrompt({
          id: 'p1',
          name: 'Old blog post',
          template: OLD,
          model: 'gpt-4-turbo',
        });
        stub.state.prompts = [restored];
        versions = [version(3, OLD, { name: 'Old blog post', model: 'gpt-4-turbo' }), ...versions];
        return answer(200, restored);
      },
      ...routes,
    },
  });
  return stub;
}

async function openVersions() {
  renderAdmin('/prompts/p1');
  await screen.findByRole('heading', { level: 1, name: 'Blog post' });
  act(() => screen.getByRole('tab', { name: 'Edit Prompt' }).click());
  return screen.findByRole('list', { name: 'Prompt versions' });
}

const templateField = () => screen.getByLabelText('Template') as HTMLTextAreaElement;

describe('the Versions card', () => {
  it('when an admin opens the edit tab, then the versions are listed newest first with author and relative time, the current one marked', async () => {
    server();
    const list = await openVersions();

    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Version 2Current.*by eve editor · 1 hour ago/),
      expect.stringMatching(/^Version 1.*by you · 2 hours ago/),
    ]);
    expect(within(items[0]!).getByRole('button')).toHaveProperty('disabled', true);
  });

  it('when an admin selects an older version, then its template is shown against the current one, line by line, with its other fields', async () => {
    server();
    const list = await openVersions();

    act(() =>
      within(list)
        .getByRole('button', { name: /Version 1/ })
        .click(),
    );

    const compare = screen.getByRole('region', {
      name: 'Version 1 compared with the current version',
    });
    const diff = within(compare).getByTestId('version-diff');
    expect(Array.from(diff.children).map((line) => line.textContent)).toEqual([
      '  Write about {topic}',
      '− only in version 1: Keep it short.',
      '+ only in the current version: Use a friendly tone.',
    ]);
    expect(within(compare).getByText('Old blog post')).toBeTruthy();
    expect(within(compare).getByText('gpt-4-turbo')).toBeTruthy();
    expect(
      within(list)
        .getByRole('button', { name: /Version 1/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('when the admin confirms Restore, then the API is called with the version seen as current, and the form shows the restored text', async () => {
    const { calls } = server();
    const list = await openVersions();
    act(() =>
      within(list)
        .getByRole('button', { name: /Version 1/ })
        .click(),
    );

    act(() => screen.getByRole('button', { name: 'Restore version 1' }).click());
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Restore version 1?')).toBeTruthy();
    expect(writes(calls)).toEqual([]);
    act(() => within(dialog).getByRole('button', { name: 'Restore version 1' }).click());

    expect(await screen.findByText('Version 1 restored')).toBeTruthy();
    expect(writes(calls)).toEqual(['POST /api/prompts/p1/versions/1/restore']);
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      currentVersion: 2,
      workspaceId: 1,
    });
    await waitFor(() => expect(templateField().value).toBe(OLD));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Old blog post');
    const refreshed = await screen.findByRole('list', { name: 'Prompt versions' });
    await waitFor(() => expect(within(refreshed).getAllByRole('listitem')).toHaveLength(3));
  });

  it('when the admin cancels the confirmation, then nothing is restored', async () => {
    const { calls } = server();
    const list = await openVersions();
    act(() =>
      within(list)
        .getByRole('button', { name: /Version 1/ })
        .click(),
    );
    act(() => screen.getByRole('button', { name: 'Restore version 1' }).click());
    const dialog = await screen.findByRole('alertdialog');

    act(() => within(dialog).getByRole('button', { name: 'Cancel' }).click());

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes(calls)).toEqual([]);
    expect(templateField().value).toBe(CURRENT);
  });

  it('when someone else changed the prompt meanwhile (409), then the toast says so and the form keeps the current text', async () => {
    server({
      'POST /api/prompts/p1/versions/1/restore': () =>
        answer(409, { code: 'PROMPT.CONFLICT', message: 'changed' }),
    });
    const list = await openVersions();
    act(() =>
      within(list)
        .getByRole('button', { name: /Version 1/ })
        .click(),
    );
    act(() => screen.getByRole('button', { name: 'Restore version 1' }).click());
    const dialog = await screen.findByRole('alertdialog');
    act(() => within(dialog).getByRole('button', { name: 'Restore version 1' }).click());

    const toast = (await screen.findByText('Failed to restore the version')).closest('li');
    expect(toast?.textContent).toContain('changed by someone else in the meantime');
    expect(templateField().value).toBe(CURRENT);
  });

  it('when the page is in Dutch, then the card reads in Dutch', async () => {
    server();
    act(() => applyLanguage('nl'));
    try {
      renderAdmin('/prompts/p1');
      await screen.findByRole('heading', { level: 1, name: 'Blog post' });
      act(() => screen.getByRole('tab', { name: 'Prompt bewerken' }).click());
      const list = await screen.findByRole('list', { name: 'Promptversies' });
      expect(screen.getByText('Versies')).toBeTruthy();
      act(() =>
        within(list)
          .getByRole('button', { name: /Versie 1/ })
          .click(),
      );
      expect(screen.getByRole('button', { name: 'Versie 1 terugzetten' })).toBeTruthy();
      expect(within(list).getAllByRole('listitem')[1]!.textContent).toContain('door jou');
    } finally {
      act(() => applyLanguage('en'));
    }
  });

  it('when a member who is not an admin opens the prompt, then no versions are shown or asked for', async () => {
    const { calls } = promptsServer({
      me: member,
      prompts: [buildPrompt({ id: 'p1', name: 'Blog post', userId: 'member' })],
    });
    renderAdmin('/prompts/p1');
    await screen.findByRole('heading', { level: 1, name: 'Blog post' });
    const editTab = screen.queryByRole('tab', { name: 'Edit Prompt' });
    if (editTab) act(() => editTab.click());

    expect(screen.queryByRole('list', { name: 'Prompt versions' })).toBeNull();
    expect(calls.some((call) => call.url.includes('/versions'))).toBe(false);
  });
});
