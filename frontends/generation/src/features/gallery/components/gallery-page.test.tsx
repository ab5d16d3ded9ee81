import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import {
  admin,
  buildContent,
  buildPrompt,
  json,
  member,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';
import { gridLayout } from './gallery-page';

// The gallery (issue 18): the workspace's images page by page in a virtual grid, filters
// (prompt template, review state, model, author, dates), the image's details, "Run again" and
// download.

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

/** `count` images titled `Banner <prefix>1`, `Banner <prefix>2`, … */
const many = (count: number, prefix = '') =>
  Array.from({ length: count }, (_, index) => image(`${prefix}${index + 1}`));

const windowY = () => window.scrollY;

/**
 * jsdom lays nothing out: a gallery list `width` px wide at the top of the document (as a
 * browser reports it while the window is scrolled), on a 768 px high window.
 */
function layOut(width = 0) {
  jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => {
    const top = -windowY();
    return { x: 0, y: top, top, left: 0, right: width, bottom: top, width, height: 0 } as DOMRect;
  });
}

function setScrollY(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true, writable: true });
}

/** Scrolls the window to `y` px from the top of the document. */
function scrollWindowTo(y: number) {
  act(() => window.scrollTo({ top: y }));
}

beforeEach(() => {
  localStorage.clear();
  // jsdom does not scroll: the window moves and tells its listeners, as a browser's does.
  jest.spyOn(window, 'scrollTo').mockImplementation(((options: ScrollToOptions) => {
    const y = Math.max(0, options.top ?? window.scrollY);
    if (y === window.scrollY) return;
    setScrollY(y);
    window.dispatchEvent(new Event('scroll'));
  }) as typeof window.scrollTo);
});
afterEach(() => {
  act(() => applyLanguage('en'));
  jest.restoreAllMocks();
  setScrollY(0);
});

const grid = () => screen.getByRole('list', { name: 'Images' });
const opened = () =>
  within(grid())
    .getAllByRole('button')
    .map((b) => b.getAttribute('aria-label'));
const optionsOf = (label: string) =>
  Array.from((screen.getByLabelText(label) as HTMLSelectElement).options).map((o) => o.text);

describe('Gallery', () => {
  it('when 500 images are loaded, then only the rows near the screen are in the page, and scrolling shows the others', async () => {
    layOut(1000); // five columns of 190 px cells, 12 px apart: 100 rows of 202.4 px
    stubGenerationApi(member, { [LIST]: () => json({ items: many(500), nextCursor: null }) });
    renderGeneration('/gallery');
    await waitFor(() => expect(opened()[0]).toBe('Open Banner 1'));
    expect(opened().length).toBeGreaterThanOrEqual(20); // the four rows on the screen at least
    expect(opened().length).toBeLessThan(50);
    // Screen readers still hear "1 of 500".
    const firstItem = within(grid()).getAllByRole('listitem')[0]!;
    expect(firstItem.getAttribute('aria-setsize')).toBe('500');

    scrollWindowTo(50 * 202.4); // row 50 at the top of the screen
    await waitFor(() => expect(opened()).toContain('Open Banner 251'));
    expect(opened()).not.toContain('Open Banner 1');
    expect(opened().length).toBeLessThan(50);

    scrollWindowTo(100 * 202.4 - 12 - 768); // the end
    await waitFor(() => expect(opened()).toContain('Open Banner 500'));
    expect(opened().length).toBeLessThan(50);
  });

  it("when the grid is laid out, then it has the columns of the stylesheet's auto-fill grid (10rem cells at least, 0.75rem apart)", () => {
    // A phone (375 px wide, 16 px margins): two cells a row.
    expect(gridLayout(343)).toEqual({ columns: 2, cell: 165.5, gap: 12 });
    // Narrower than one cell: one, as wide as the list.
    expect(gridLayout(120)).toEqual({ columns: 1, cell: 120, gap: 12 });
    // A wide screen; and a list exactly five cells of 10rem wide.
    expect(gridLayout(1100).columns).toBe(6);
    expect(gridLayout(5 * 160 + 4 * 12)).toEqual({ columns: 5, cell: 160, gap: 12 });
    // A larger root font: larger cells.
    expect(gridLayout(1100, 20).columns).toBe(5);
    // Not measured (jsdom): one column of 10rem.
    expect(gridLayout(0)).toEqual({ columns: 1, cell: 160, gap: 12 });
  });

  it('when the last rows near the screen, then the next page is read without a click', async () => {
    layOut(); // one column of 160 px cells, 12 px apart
    const calls = stubGenerationApi(member, {
      [LIST]: () => json({ items: many(24, 'a'), nextCursor: 'n1' }),
      [`${LIST}&cursor=n1`]: () => json({ items: many(24, 'b'), nextCursor: 'n2' }),
      [`${LIST}&cursor=n2`]: () => json({ items: [], nextCursor: null }),
    });
    const pagesRead = () => calls.filter((c) => c.url.startsWith(LIST.slice(4))).length;
    renderGeneration('/gallery');
    await waitFor(() => expect(opened()[0]).toBe('Open Banner a1'));
    expect(opened()).not.toContain('Open Banner a24');
    expect(pagesRead()).toBe(1);
    expect(screen.getByRole('button', { name: 'Load more' })).toBeTruthy();

    scrollWindowTo(24 * 172 - 12 - 768); // the first page's last row at the foot of the screen
    await waitFor(() => expect(opened()).toContain('Open Banner b1'));
    expect(opened()).toContain('Open Banner a24');
    expect(calls.some((c) => c.url.endsWith('cursor=n1'))).toBe(true);
    // The second page is still far below: not read yet.
    expect(calls.some((c) => c.url.endsWith('cursor=n2'))).toBe(false);
  });

  it('when the first page does not fill the screen, then the next one is read at once', async () => {
    stubGenerationApi(member, {
      [LIST]: () => json({ items: [first, second], nextCursor: 'n1' }),
      [`${LIST}&cursor=n1`]: () => json({ items: [old], nextCursor: null }),
    });
    renderGeneration('/gallery');
    await waitFor(() =>
      expect(opened()).toEqual(['Open Banner i1', 'Open Banner i2', 'Open Banner i3']),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('when more is loaded, then the next page of images joins the grid', async () => {
    layOut();
    stubGenerationApi(member, {
      [LIST]: () => json({ items: many(24, 'a'), nextCursor: 'n1' }),
      [`${LIST}&cursor=n1`]: () => json({ items: [old], nextCursor: null }),
    });
    renderGeneration('/gallery');
    await waitFor(() => expect(opened()[0]).toBe('Open Banner a1'));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
    scrollWindowTo(25 * 172 - 12 - 768);
    await waitFor(() => expect(opened().at(-1)).toBe('Open Banner i3'));
  });

  it('when the next page fails, then it is not read again by itself and "Load more" retries it', async () => {
    let failures = 1;
    const calls = stubGenerationApi(member, {
      [LIST]: () => json({ items: [first, second], nextCursor: 'n1' }),
      [`${LIST}&cursor=n1`]: () =>
        failures-- > 0 ? json({ error: 'Down' }, 500) : json({ items: [old], nextCursor: null }),
    });
    const nextReads = () => calls.filter((c) => c.url.endsWith('cursor=n1')).length;
    renderGeneration('/gallery');
    const more = await screen.findByRole('button', { name: 'Load more' });
    await waitFor(() => expect(nextReads()).toBe(1));
    await waitFor(() => expect((more as HTMLButtonElement).disabled).toBe(false));
    expect(nextReads()).toBe(1);
    expect(opened()).toEqual(['Open Banner i1', 'Open Banner i2']);

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(opened()).toHaveLength(3));
    expect(nextReads()).toBe(2);
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

  it('when images are in review, approved or sent back, then each cell shows its review state, and the review filter asks the server for one state', async () => {
    const waiting = image('w1', { review: { state: 'in-review', by: 'member' } });
    const approved = image('a1', { review: { state: 'approved', by: 'admin' } });
    const sentBack = image('s1', {
      review: { state: 'changes-requested', comment: 'Less blue', by: 'admin' },
    });
    const calls = stubGenerationApi(member, {
      [LIST]: () => json({ items: [first, waiting, approved, sentBack], nextCursor: null }),
      [`GET /api/contents?workspaceId=1&type=image&review=approved&limit=24`]: () =>
        json({ items: [approved], nextCursor: null }),
    });
    renderGeneration('/gallery');
    await waitFor(() => expect(opened()).toHaveLength(4));
    const cellOf = (title: string) =>
      screen.getByRole('button', { name: `Open ${title}` }).closest('li')!;
    const stateOf = (title: string) => within(cellOf(title)).getByTestId('review-state');
    expect(stateOf('Banner i1').textContent).toBe('Draft');
    expect(stateOf('Banner w1').textContent).toBe('In review');
    expect(stateOf('Banner a1').textContent).toBe('Approved');
    expect(stateOf('Banner s1').textContent).toBe('Changes requested');
    expect(within(cellOf('Banner s1')).getByText('Changes requested: Less blue')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Review state'), { target: { value: 'approved' } });
    await waitFor(() => expect(opened()).toEqual(['Open Banner a1']));
    expect(calls.some((c) => c.url.includes('review=approved'))).toBe(true);
  });

  it('when a prompt template is chosen, then the server is asked for the images made from it, the text search too', async () => {
    const calls = stubGenerationApi(member, {
      [LIST]: () => json({ items: [first, second], nextCursor: null }),
      'GET /api/prompts?workspaceId=1&contentType=image': () =>
        json([
          buildPrompt({ id: 'poster', name: 'Poster', contentType: 'image' }),
          buildPrompt({ id: 'banner', name: 'Banner', contentType: 'image' }),
        ]),
      'GET /api/contents?workspaceId=1&type=image&promptId=poster&limit=24': () =>
        json({ items: [second], nextCursor: null }),
      'GET /api/contents?workspaceId=1&type=image&q=cat&promptId=poster&limit=24': () =>
        json({ items: [], nextCursor: null }),
    });
    renderGeneration('/gallery');
    await waitFor(() => expect(optionsOf('Prompt template')).toEqual(['All', 'Banner', 'Poster']));

    fireEvent.change(screen.getByLabelText('Prompt template'), { target: { value: 'poster' } });
    await waitFor(() => expect(opened()).toEqual(['Open Banner i2']));
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'cat' } });
    expect(await screen.findByText('No matching images')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('q=cat&promptId=poster'))).toBe(true);
  });

  it('when an image is opened, then its review state and the prompt version it came from show', async () => {
    const versioned = image('v1', {
      promptVersion: 3,
      review: { state: 'changes-requested', comment: 'Less blue', by: 'admin' },
    });
    stubGenerationApi(member, {
      [LIST]: () => json({ items: [versioned, first], nextCursor: null }),
      'GET /api/contents/v1': () => json(versioned),
      'GET /api/contents/i1': () => json(first),
    });
    renderGeneration('/gallery');
    fireEvent.click(await screen.findByRole('button', { name: 'Open Banner v1' }));
    let details = within(await screen.findByRole('dialog')).getByLabelText('Inputs');
    expect(within(details).getByText('Prompt version')).toBeTruthy();
    expect(within(details).getByText('Version 3')).toBeTruthy();
    expect(within(details).getByTestId('review-state').textContent).toBe('Changes requested');
    expect(within(details).getByText('Changes requested: Less blue')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Open Banner i1' }));
    details = within(await screen.findByRole('dialog')).getByLabelText('Inputs');
    // No version recorded (made before versions were kept): none shown.
    expect(within(details).queryByText('Prompt version')).toBeNull();
    expect(within(details).getByTestId('review-state').textContent).toBe('Draft');
  });

  it('when a member looks, then other authors read as "Another member" with a number, never their ids', async () => {
    const third = image('i4', { userId: 'third' });
    const calls = stubGenerationApi(member, {
      [LIST]: () => json({ items: [second, first, third], nextCursor: null }),
      'GET /api/contents/i2': () => json(second),
    });
    renderGeneration('/gallery');
    await waitFor(() =>
      expect(optionsOf('Author')).toEqual(['All', 'You', 'Another member 1', 'Another member 2']),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open Banner i2' }));
    const details = within(await screen.findByRole('dialog')).getByLabelText('Inputs');
    expect(within(details).getByText('Another member 1')).toBeTruthy();
    expect(within(details).queryByText('other')).toBeNull();
    // A member may not list the users: not asked.
    expect(calls.some((c) => c.url === '/api/users')).toBe(false);
  });

  it('when an admin looks, then the authors read as their usernames', async () => {
    const mine = image('i5', { userId: 'admin' });
    stubGenerationApi(admin, {
      [LIST]: () => json({ items: [first, second, mine], nextCursor: null }),
      'GET /api/users': () =>
        json([admin, member, { ...member, id: 'other', username: 'olga other' }]),
      'GET /api/contents/i1': () => json(first),
    });
    renderGeneration('/gallery');
    await waitFor(() =>
      expect(optionsOf('Author')).toEqual(['All', 'You', 'mo member', 'olga other']),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open Banner i1' }));
    const details = within(await screen.findByRole('dialog')).getByLabelText('Inputs');
    expect(within(details).getByText('mo member')).toBeTruthy();
  });

  it('when the workspace has no images, then "No images yet" shows', async () => {
    stubGenerationApi(member, { [LIST]: () => json({ items: [], nextCursor: null }) });
    renderGeneration('/gallery');
    expect(await screen.findByText('No images yet')).toBeTruthy();
  });

  it('when the gallery is in Dutch, then its title, filters and details read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    const versioned = { ...first, promptVersion: 2 };
    stubGenerationApi(member, {
      [LIST]: () => json({ items: [versioned, second], nextCursor: null }),
      'GET /api/contents/i1': () => json(versioned),
    });
    renderGeneration('/gallery');
    expect(await screen.findByRole('heading', { name: 'Galerij', level: 1 })).toBeTruthy();
    expect(screen.getByLabelText('Auteur')).toBeTruthy();
    expect(screen.getByLabelText('Van')).toBeTruthy();
    expect(screen.getByLabelText('Promptsjabloon')).toBeTruthy();
    expect(screen.getByLabelText('Reviewstatus')).toBeTruthy();
    await waitFor(() => expect(optionsOf('Auteur')).toEqual(['Alle', 'Jij', 'Ander lid 1']));
    fireEvent.click(await screen.findByRole('button', { name: 'Banner i1 openen' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('link', { name: 'Opnieuw uitvoeren' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Downloaden' })).toBeTruthy();
    expect(within(dialog).getByText('Referentieafbeeldingen')).toBeTruthy();
    expect(within(dialog).getByText('Versie 2')).toBeTruthy();
    expect(within(dialog).getByText('Promptversie')).toBeTruthy();
    expect(within(dialog).getByText('Reviewstatus')).toBeTruthy();
    expect(within(dialog).getByTestId('review-state').textContent).toBe('Concept');
  });
});
