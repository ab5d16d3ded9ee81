import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import {
  admin,
  buildContent,
  json,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

const mine = buildContent({ id: 't1', title: 'My launch post', userId: 'admin' });
const theirs = buildContent({ id: 't2', title: 'Their post', userId: 'someone' });
const older = buildContent({ id: 't3', title: 'Older post', userId: 'admin' });
const picture = buildContent({
  id: 'i1',
  title: 'Summer Banner',
  contentType: 'image',
  model: 'gpt-image-1',
  content: '/api/images/i1?workspaceId=1',
});

beforeEach(() => localStorage.clear());
afterEach(() => act(() => applyLanguage('en')));

describe('History page', () => {
  it('when more is loaded, then the next page is appended and the count follows', async () => {
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [mine, theirs], nextCursor: 'next1' }),
      'GET /api/contents?workspaceId=1&type=text&cursor=next1': () =>
        json({ items: [older], nextCursor: null }),
    });
    renderGeneration('/history?type=text');
    expect(await screen.findByText('2 item(s)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Older post')).toBeTruthy();
    expect(screen.getByText('3 item(s)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('when a search is typed, then the list is asked with q and an empty answer says "No matching content"', async () => {
    const calls = stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () => json({ items: [mine], nextCursor: null }),
      'GET /api/contents?workspaceId=1&type=text&q=zebra': () =>
        json({ items: [], nextCursor: null }),
    });
    renderGeneration('/history?type=text');
    await screen.findByText('My launch post');
    fireEvent.change(screen.getByPlaceholderText('Search content...'), {
      target: { value: 'zebra' },
    });
    expect(await screen.findByText('No matching content')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search terms')).toBeTruthy();
    expect(calls.some((c) => c.url.endsWith('q=zebra'))).toBe(true);
  });

  it('when a text item is opened, then the chat opens that conversation', async () => {
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () => json({ items: [mine], nextCursor: null }),
    });
    renderGeneration('/history?type=text');
    fireEvent.click(await screen.findByRole('button', { name: 'My launch post' }));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/?conversation=t1');
  });

  it('when an image item is opened, then the image dialog shows it', async () => {
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=image': () =>
        json({ items: [picture], nextCursor: null }),
    });
    renderGeneration('/history?type=image');
    fireEvent.click(await screen.findByRole('button', { name: 'Summer Banner' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('img', { name: 'Summer Banner' })).toBeTruthy();
    expect(within(dialog).getByText('gpt-image-1')).toBeTruthy();
  });

  it('when one deletes an own item and confirms, then it is deleted; others have no delete button', async () => {
    let items = [mine, theirs];
    const calls = stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () => json({ items, nextCursor: null }),
      'DELETE /api/contents/t1': () => {
        items = items.filter((item) => item.id !== 't1');
        return json('', 204);
      },
    });
    renderGeneration('/history?type=text');
    await screen.findByText('Their post');
    expect(screen.queryByRole('button', { name: 'Delete Their post' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete My launch post' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText('Delete content?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('My launch post')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/contents/t1')).toBe(true);
  });

  it('when a content records the prompt version it came from, then its row shows "Version N" beside its review state', async () => {
    const versioned = buildContent({ id: 'v1', title: 'Versioned post', promptVersion: 4 });
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [versioned, mine], nextCursor: null }),
    });
    renderGeneration('/history?type=text');
    const rowOf = async (title: string) =>
      (await screen.findByRole('button', { name: title })).closest('li')!;

    const row = within(await rowOf('Versioned post'));
    expect(row.getByText('Version 4')).toBeTruthy();
    expect(row.getByTestId('review-state').textContent).toBe('Draft');
    // Made before versions were kept: no version shown.
    expect(within(await rowOf('My launch post')).queryByText(/^Version/)).toBeNull();

    act(() => applyLanguage('nl'));
    expect(within(await rowOf('Versioned post')).getByText('Versie 4')).toBeTruthy();
  });

  it('when the workspace has no content, then "No content yet" shows', async () => {
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=image': () => json({ items: [], nextCursor: null }),
    });
    renderGeneration('/history?type=image');
    expect(await screen.findByText('No content yet')).toBeTruthy();
    expect(screen.getByText('Generate some content to see it here')).toBeTruthy();
  });

  it('when a conversation has several turns, then it is one row with the latest turn and the number of turns', async () => {
    const start = buildContent({ id: 'r1', title: 'Launch post', content: 'First draft' });
    const reply = buildContent({
      id: 'r2',
      title: 'Launch post',
      content: 'Shorter draft',
      parentId: 'r1',
    });
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [reply, mine, start], nextCursor: null }),
    });
    renderGeneration('/history?type=text');

    expect(await screen.findByText('2 item(s)')).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Texts' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Shorter draft')).toBeTruthy();
    expect(within(rows[0]!).getByText('2 turns')).toBeTruthy();
    expect(within(rows[1]!).getByText('1 turn')).toBeTruthy();
    expect(screen.queryByText('First draft')).toBeNull();
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Launch post' }));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/?conversation=r2');
  });
});
