import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import type { Answer } from '@aict/web-kit/testing';
import {
  admin,
  buildContent,
  json,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

// Issue 18: words to avoid get a badge in history; a text thread exports as Markdown, JSON
// or Word, saved under the name the server gives.

const flagged = buildContent({ id: 't1', title: 'Launch post', voiceFlags: ['synergy'] });
const clean = buildContent({ id: 't2', title: 'Plain post' });

/** A file answer as fetch gives it (the shared stub answers text only). */
function fileAnswer(body: string, fileName: string, type: string): Answer {
  return {
    ok: true,
    status: 200,
    statusText: 'OK',
    text: async () => body,
    blob: async () => new Blob([body], { type }),
    headers: new Headers({
      'content-type': type,
      'content-disposition': `attachment; filename="${fileName}"`,
    }),
  } as unknown as Answer;
}

let saved: { name: string; href: string }[];
beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
  saved = [];
  URL.createObjectURL = jest.fn(() => 'blob:export');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, href: this.href });
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  act(() => applyLanguage('en'));
});

const history = () => json({ items: [flagged, clean], nextCursor: null });

describe('history: brand voice badge and export', () => {
  it('when a text holds words to avoid, then its row shows a badge naming them; a clean text has none', async () => {
    stubGenerationApi(admin, { 'GET /api/contents?workspaceId=1&type=text': history });
    renderGeneration('/history?type=text');

    const row = (await screen.findByRole('button', { name: 'Launch post' })).closest('li')!;
    const cleanRow = screen.getByRole('button', { name: 'Plain post' }).closest('li')!;

    const badge = within(row).getByTestId('voice-flags');
    expect(badge.textContent).toBe('Brand voice');
    expect(badge.getAttribute('title')).toBe('Contains words to avoid: synergy');
    expect(within(cleanRow).queryByTestId('voice-flags')).toBeNull();
  });

  it('when Word is chosen, then the export is asked for that content and saved under the server name', async () => {
    const calls = stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': history,
      'GET /api/contents/t1/export?format=docx&workspaceId=1': () =>
        fileAnswer('docx-bytes', 'launch-post.docx', 'application/octet-stream'),
    });
    renderGeneration('/history?type=text');

    fireEvent.click(await screen.findByRole('button', { name: 'Export "Launch post" as Word' }));

    await waitFor(() => expect(saved).toEqual([{ name: 'launch-post.docx', href: 'blob:export' }]));
    expect(calls.filter((c) => c.url.includes('/export')).map((c) => c.url)).toEqual([
      '/api/contents/t1/export?format=docx&workspaceId=1',
    ]);
  });

  it('when the export fails, then a toast says so and nothing is saved', async () => {
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': history,
      'GET /api/contents/t2/export?format=md&workspaceId=1': () =>
        json({ code: 'CONTENT.NOT_FOUND', message: 'Content not found' }, 404),
    });
    renderGeneration('/history?type=text');

    fireEvent.click(await screen.findByRole('button', { name: 'Export "Plain post" as Markdown' }));

    expect(await screen.findByText('Export failed')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('when the language is Dutch, then the badge and the export buttons read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    stubGenerationApi(admin, { 'GET /api/contents?workspaceId=1&type=text': history });
    renderGeneration('/history?type=text');

    const row = (await screen.findByRole('button', { name: 'Launch post' })).closest('li')!;

    expect(within(row).getByTestId('voice-flags').textContent).toBe('Merkstem');
    expect(within(row).getByTestId('voice-flags').getAttribute('title')).toBe(
      'Bevat woorden om te vermijden: synergy',
    );
    expect(
      within(row).getByRole('button', { name: '"Launch post" exporteren als JSON' }),
    ).toBeTruthy();
  });
});
