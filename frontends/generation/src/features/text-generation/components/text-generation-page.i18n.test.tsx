import '../../../test/setup';
import { act, fireEvent, screen } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import {
  admin,
  buildPrompt,
  json,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

// The generation remote in Dutch: the Text Generation and Image Generation pages.

const blog = buildPrompt({ id: 'blog', name: 'Blog post', variables: ['topic', 'language'] });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  act(() => applyLanguage('nl'));
});
afterEach(() => act(() => applyLanguage('en')));

describe('the generation pages in Dutch', () => {
  it('when the Text Generation page opens in Dutch, then its headings, filters and actions read in Dutch', async () => {
    stubGenerationApi(admin, {
      'GET /api/prompts?workspaceId=1&contentType=text': () => json([blog]),
    });
    renderGeneration('/text-generation');
    expect(await screen.findByRole('heading', { name: 'Tekst genereren', level: 1 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Kies een prompt' })).toBeTruthy();
    expect(screen.getByLabelText('Prompts zoeken')).toBeTruthy();
    expect(screen.getByLabelText('Categorie')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: /Blog post/ }));
    expect(screen.getByPlaceholderText('Vul topic in')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tekst genereren' })).toBeTruthy();
  });

  it('when Generate is pressed in Dutch without a prompt, then the toast asks in Dutch to pick one', async () => {
    stubGenerationApi(admin, {
      'GET /api/prompts?workspaceId=1&contentType=image': () => json([]),
    });
    renderGeneration('/image-generation');
    expect(
      await screen.findByRole('heading', { name: 'Afbeelding genereren', level: 1 }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Afbeelding genereren' }));
    expect(await screen.findByText('Kies eerst een prompt')).toBeTruthy();
  });
});

describe('the stats page in Dutch', () => {
  it('when the Stats page opens in Dutch, then its counts and sections read in Dutch', async () => {
    stubGenerationApi(admin);
    renderGeneration('/stats');
    expect(await screen.findByRole('heading', { name: 'Statistieken', level: 1 })).toBeTruthy();
    expect(screen.getByText('Prompts in totaal')).toBeTruthy();
    expect(screen.getByText('Gegenereerde afbeeldingen')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Recente prompts' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Recente teksten' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Alle afbeeldingen bekijken' })).toBeTruthy();
  });
});
