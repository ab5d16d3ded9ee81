import '../../../test/setup';
import { act, screen, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import { answer } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { admin, buildPrompt, promptsServer } from '../../../test/prompts-api';

// Issue 18: on the prompt page, admins see the system instruction sent before a text prompt.

afterEach(() => act(() => applyLanguage('en')));

const voice = {
  workspaceId: 1,
  tone: 'Warm and direct',
  avoidWords: ['synergy', 'leverage'],
  useWords: [],
  example: '',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

function open(prompt = buildPrompt({ id: 'p1', name: 'Blog post' }), brandVoice: unknown = voice) {
  promptsServer({
    me: admin,
    prompts: [prompt],
    routes: { 'GET /api/workspaces/1/brand-voice': () => answer(200, brandVoice) },
  });
  renderAdmin(`/prompts/${prompt.id}`);
}

const section = () =>
  screen.getByRole('heading', { name: 'System instruction' }).closest('section')!;

describe('prompt preview: the system instruction', () => {
  it('when the workspace has a brand voice, then the instruction the model gets is shown as sent', async () => {
    open();

    const shown = await screen.findByTestId('system-instruction');

    expect(shown.textContent).toBe(
      [
        'Write in the brand voice of this workspace.',
        'Tone: Warm and direct',
        'Never use these words: synergy, leverage',
      ].join('\n'),
    );
    expect(within(section()).getByText('Then the prompt: the filled template.')).toBeTruthy();
  });

  it('when the workspace has none, then the preview says only the prompt is sent', async () => {
    open(undefined, { ...voice, tone: '', avoidWords: [], updatedAt: null });

    expect(
      await screen.findByText('No brand voice is set for this workspace: only the prompt is sent.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('system-instruction')).toBeNull();
  });

  it('when the prompt makes images, then there is no system instruction preview', async () => {
    open(buildPrompt({ id: 'i1', name: 'Banner', contentType: 'image', model: 'dall-e-3' }));

    await screen.findByRole('heading', { level: 1, name: 'Banner' });
    expect(screen.queryByRole('heading', { name: 'System instruction' })).toBeNull();
  });

  it('when the language is Dutch, then the preview reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    open();

    expect(await screen.findByRole('heading', { name: 'Systeeminstructie' })).toBeTruthy();
    expect(
      await screen.findByText('Wat in Acme vóór deze prompt naar het model gaat.'),
    ).toBeTruthy();
  });
});
