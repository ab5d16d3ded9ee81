import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import {
  buildContent,
  buildPrompt,
  json,
  member,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

// The gallery (issue 18): the workspace's images page by page, filters, the image's details,
// "Run again" and download.

const LIST = 'GET /api/contents?workspaceId=1&type=image&limit=24';

const image = (id: string, extra: Parameters<typeof buildContent>[0] = {}) =>
  buildContent({
    id,
    title: `Banner ${id}`,
    contentType: 'image',
    model: 'dall-e-3',
    content: `/api/images/${id}?workspaceId=1`,
    promptId: 'banner',
    userId: 'member',
    metadata: { inputs: { subject: `cat ${id}`, style: 'flat' }, referenceImages: 2 },
    createdAt: '2026-03-10T12:00:00.000Z',
    ...extra,
  });

const first = image('i1');
const second = image('i2', { model: 'gpt-image-1', userId: 'other' });
const old = image('i3', { createdAt: '2025-12-01T12:00:00.000Z' });

beforeEach(() => localStorage.clear());
afterEach(() => act(() => applyLanguage('en')));

const grid = () => screen.getByRole('list', { name: 'Images' });
const opened = () =>
  within(grid())
    .getAllByRole('button')
    .map((b) => b.getAttribute('aria-label'));

describe('Gallery', () => {
  it('when more is loaded, then the next page of images joins the grid', async () => {
    stubGenerationApi(member, {
      [LIST]: () => json({ items: [first, second], nextCursor: 'n1' }),
      [`${LIST}&cursor=n1`]: () => json({ items: [old], nextCursor: null }),
    });
    renderGeneration('/gallery');
    await waitFor(() => expect(opened()).toEqual(['Open Banner i1', 'Open Banner i2']));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(opened()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('when model, author or dates are chosen, then the server is asked for those images (days in local time, both ends included)', async () => {
    const list = (filters: Record<string, string>) =>
      `GET /api/contents?${new URLSearchParams({ workspaceId: '1', type: 'image', ...filters, limit: '24' })}`;
    const from = new Date('2026-01-01T00:00:00').toISOString();
    const to = new Date('2026-02-02T00:00:00').toISOString();
    const calls = stubGenerationApi(member, {
      [LIST]: () => json({ items: [first, second, old], nextCursor: null }),
      [list({ model: 'gpt-image-1' })]: () => json({ items: [second], nextCursor: null }),
      [list({ userId: 'member' })]: () => json({ items: [first, old], nextCursor: null }),
      [list({ userId: 'member', from })]: () => json({ items: [first], nextCursor: null }),
      [list({ userId: 'member', from, to })]: () => json({ items: [], nextCursor: null }),
      [list({ q: 'poster', userId: 'member', from, to })]: () =>
        json({ items: [], nextCursor: null }),
    });
    renderGeneration('/gallery');
    await waitFor(() => expect(opened()).toHaveLength(3));

    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'gpt-image-1' } });
    await waitFor(() => expect(opened()).toEqual(['Open Banner i2']));
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Author'), { target: { value: 'member' } });
    await waitFor(() => expect(opened()).toEqual(['Open Banner i1', 'Open Banner i3']));
    // Every author seen stays choosable once one is chosen.
    expect(
      Array.from((screen.getByLabelText('Author') as HTMLSelectElement).options).map(
        (o) => o.value,
      ),
    ).toEqual(['', 'member', 'other']);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    await waitFor(() => expect(opened()).toEqual(['Open Banner i1']));
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-02-01' } });
    expect(await screen.findByText('No matching images')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'poster' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('q=poster'))).toBe(true));
  });

  it('when an image is opened, then its prompt, inputs, model, references, author and time show, and "Run again" opens image generation with its inputs', async () => {
    stubGenerationApi(member, {
      [LIST]: () => json({ items: [first], nextCursor: null }),
      'GET /api/contents/i1': () => json(first),
      'GET /api/prompts?workspaceId=1&contentType=image': () =>
        json([
          buildPrompt({
            id: 'banner',
            name: 'Banner',
            contentType: 'image',
            model: 'dall-e-3',
            variables: ['subject', 'style'],
          }),
        ]),
    });
    renderGeneration('/gallery');
    fireEvent.click(await screen.findByRole('button', { name: 'Open Banner i1' }));
    const dialog = await screen.findByRole('dialog');
    const details = within(dialog).getByLabelText('Inputs');
    expect(
      within(details)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['subject: cat i1', 'style: flat']);
    expect(within(details).getByText('2')).toBeTruthy();
    expect(within(details).getByText('You')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('link', { name: 'Run again' }));

    const at = new URL(screen.getByRole('status', { name: 'location' }).textContent!, 'http://x');
    expect(at.pathname).toBe('/image-generation');
    expect(at.searchParams.get('promptId')).toBe('banner');
    expect(JSON.parse(at.searchParams.get('inputs')!)).toEqual(first.metadata.inputs);
    expect(((await screen.findByLabelText('subject')) as HTMLInputElement).value).toBe('cat i1');
    expect((screen.getByLabelText('style') as HTMLInputElement).value).toBe('flat');
  });

  it('when the workspace has no images, then "No images yet" shows', async () => {
    stubGenerationApi(member, { [LIST]: () => json({ items: [], nextCursor: null }) });
    renderGeneration('/gallery');
    expect(await screen.findByText('No images yet')).toBeTruthy();
  });

  it('when the gallery is in Dutch, then its title, filters and details read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    stubGenerationApi(member, {
      [LIST]: () => json({ items: [first], nextCursor: null }),
      'GET /api/contents/i1': () => json(first),
    });
    renderGeneration('/gallery');
    expect(await screen.findByRole('heading', { name: 'Galerij', level: 1 })).toBeTruthy();
    expect(screen.getByLabelText('Auteur')).toBeTruthy();
    expect(screen.getByLabelText('Van')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Banner i1 openen' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('link', { name: 'Opnieuw uitvoeren' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Downloaden' })).toBeTruthy();
    expect(within(dialog).getByText('Referentieafbeeldingen')).toBeTruthy();
  });
});
