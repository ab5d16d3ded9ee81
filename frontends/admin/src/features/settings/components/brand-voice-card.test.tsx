import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { answer } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { settingsServer, workspaceAdmin, writes } from '../../../test/settings-api';

// Issue 18: a workspace admin writes the brand voice on the API keys tab.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});
afterEach(() => act(() => applyLanguage('en')));

const stored = {
  workspaceId: 1,
  tone: 'Warm',
  avoidWords: ['synergy'],
  useWords: ['together'],
  example: 'We do it together.',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

const form = () => screen.getByRole('form', { name: 'Brand voice' });

describe('brand voice card', () => {
  it('when an admin edits and saves, then the words go as lists and the saved voice shows', async () => {
    const { calls } = settingsServer({
      me: workspaceAdmin,
      routes: {
        'GET /api/workspaces/1/brand-voice': () => answer(200, stored),
        'PUT /api/workspaces/1/brand-voice': (call) =>
          answer(200, { ...(call.body as object), workspaceId: 1, updatedAt: stored.updatedAt }),
      },
    });
    renderAdmin('/settings');

    const avoid = (await screen.findByLabelText('Words to avoid')) as HTMLTextAreaElement;
    expect(avoid.value).toBe('synergy');
    expect((screen.getByLabelText('Tone') as HTMLInputElement).value).toBe('Warm');
    fireEvent.change(avoid, { target: { value: 'synergy, leverage\n game changer ' } });
    fireEvent.change(screen.getByLabelText('Tone'), { target: { value: 'Warm and direct' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save brand voice' }));

    expect(await screen.findByText('Brand voice saved')).toBeTruthy();
    expect(writes(calls)).toEqual(['PUT /api/workspaces/1/brand-voice']);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      tone: 'Warm and direct',
      avoidWords: ['synergy', 'leverage', 'game changer'],
      useWords: ['together'],
      example: 'We do it together.',
    });
    expect(put.headers['x-workspace-id']).toBe('1');
  });

  it('when a word is too long, then the reason shows and nothing is sent', async () => {
    const { calls } = settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings');

    fireEvent.change(await screen.findByLabelText('Words to use'), {
      target: { value: 'x'.repeat(61) },
    });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save brand voice' }));

    expect((await within(form()).findByRole('alert')).textContent).toBe(
      'Each entry of words to use must be at most 60 characters',
    );
    expect(writes(calls)).toEqual([]);
  });

  it('when the server refuses, then a toast says the save failed', async () => {
    settingsServer({
      me: workspaceAdmin,
      routes: {
        'PUT /api/workspaces/1/brand-voice': () =>
          answer(403, { code: 'AUTH.FORBIDDEN', message: 'You do not have permission to do this' }),
      },
    });
    renderAdmin('/settings');

    fireEvent.click(within(await waitFor(form)).getByRole('button', { name: 'Save brand voice' }));

    expect(await screen.findByText('Failed to save the brand voice')).toBeTruthy();
  });

  it('when the language is Dutch, then the card reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings');

    expect(await screen.findByRole('heading', { name: 'Merkstem' })).toBeTruthy();
    expect(await screen.findByLabelText('Woorden om te vermijden')).toBeTruthy();
    expect(screen.getByLabelText('Toon')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Merkstem opslaan' })).toBeTruthy();
  });
});
