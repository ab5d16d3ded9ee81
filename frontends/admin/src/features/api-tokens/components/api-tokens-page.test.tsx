import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApiToken, CreatedApiToken } from '@aict/contracts';
import { answer, buildUser, buildWorkspace, stubApi, type StubCall } from '@aict/web-kit/testing';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { renderAdmin } from '../../../test/render-admin';

// /api-tokens (issue 17): any member creates a token for one of their workspaces, sees its
// secret once in a dialog with a copy button, lists and revokes their tokens; English and Dutch.

const acme = buildWorkspace(1, 'Acme');
const beta = buildWorkspace(2, 'Beta');
const member = buildUser({
  id: 'u1',
  username: 'mia',
  workspaceRoles: { '1': 'user', '2': 'user' },
});
const SECRET = `aict_${'A'.repeat(43)}`;

function buildToken(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    id: 't1',
    name: 'Nightly export',
    workspaceId: 1,
    scopes: ['read-contents'],
    hint: 'aict_AbCd',
    createdAt: '2026-11-01T10:00:00.000Z',
    expiresAt: '2099-01-01T10:00:00.000Z',
    lastUsedAt: null,
    ...overrides,
  };
}

function tokensServer(initial: ApiToken[] = []) {
  const state = { tokens: [...initial] };
  const calls = stubApi({
    'GET /api/user': () => answer(200, member),
    'GET /api/user/workspaces': () => answer(200, [acme, beta]),
    'GET /api/tokens': () => answer(200, state.tokens),
    'POST /api/tokens': (call: StubCall) => {
      const body = call.body as { name: string; workspaceId: number; scopes: ApiToken['scopes'] };
      const created: CreatedApiToken = {
        ...buildToken({ id: 't-new', name: body.name, workspaceId: body.workspaceId }),
        scopes: body.scopes,
        token: SECRET,
      };
      const { token: _secret, ...listed } = created;
      state.tokens.unshift(listed);
      return answer(201, created);
    },
    'DELETE /api/tokens/t1': () => {
      state.tokens = state.tokens.filter((t) => t.id !== 't1');
      return answer(204);
    },
  });
  return { calls, state };
}

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});
afterEach(() => act(() => applyLanguage('en')));

describe('the API tokens screen', () => {
  it('when a member creates a token, then the secret is shown once with a copy button and the list shows the token without it', async () => {
    const { calls } = tokensServer();
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    renderAdmin('/api-tokens');

    expect(await screen.findByText('You have no API tokens yet.')).toBeTruthy();
    await screen.findByRole('option', { name: 'Beta' });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'CI' } });
    fireEvent.change(screen.getByLabelText('Workspace'), { target: { value: '2' } });
    fireEvent.click(screen.getByLabelText('Read contents'));
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Your new token' })).toBeTruthy();
    expect((within(dialog).getByLabelText('Your new token') as HTMLInputElement).value).toBe(
      SECRET,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'CI',
      workspaceId: 2,
      scopes: ['generate'],
      expiresInDays: 30,
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    const table = await screen.findByRole('table', { name: 'Your API tokens' });
    expect(within(table).getByText('Beta')).toBeTruthy();
    expect(within(table).getByText('Never')).toBeTruthy();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('when the owner revokes a token, then it is deleted and leaves the list', async () => {
    const { calls } = tokensServer([buildToken()]);
    renderAdmin('/api-tokens');

    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Nightly export' }));

    expect(await screen.findByText('Token revoked')).toBeTruthy();
    expect(await screen.findByText('You have no API tokens yet.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/tokens/t1',
    ]);
  });

  it('when the language is Dutch, then the screen, the list and the dialog read in Dutch', async () => {
    tokensServer([buildToken({ scopes: ['generate', 'read-contents'] })]);
    act(() => applyLanguage('nl'));
    renderAdmin('/api-tokens');

    expect(await screen.findByRole('heading', { level: 1, name: 'API-tokens' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Je API-tokens' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Naam', 'Werkruimte', 'Acties', 'Verloopt', 'Laatst gebruikt', 'Acties']);
    expect(within(table).getByText('Genereren, Inhoud lezen')).toBeTruthy();
    expect(within(table).getByText('Nooit')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nightly export intrekken' })).toBeTruthy();

    await screen.findByRole('option', { name: 'Beta' });
    fireEvent.change(screen.getByLabelText('Naam'), { target: { value: 'CI' } });
    fireEvent.click(screen.getByRole('button', { name: 'Token maken' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Je nieuwe token' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Kopiëren' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Klaar' })).toBeTruthy();
  });
});
