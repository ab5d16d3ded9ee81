import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { answer, buildUser, buildWorkspace, renderWithProviders, stubApi } from '../test/render';
import {
  contentItems,
  useContent,
  useContentsInfinite,
  useConversation,
  useDeleteContent,
  useStats,
} from './content-queries';

const item = (id: string, title: string) => ({
  id,
  title,
  content: `Text of ${title}`,
  contentType: 'text',
  model: 'gpt-4o',
  language: 'en',
  userId: 'u1',
  workspaceId: 1,
  metadata: {},
  createdAt: '2026-03-01T12:00:00.000Z',
});

const signedIn = {
  'GET /api/user': () => answer(200, buildUser()),
  'GET /api/user/workspaces': () => answer(200, [buildWorkspace(1, 'Acme')]),
};

function History() {
  const history = useContentsInfinite({ type: 'text', q: ' launch ', limit: 2 });
  const remove = useDeleteContent();
  return (
    <div>
      <ul>
        {contentItems(history.data).map((c) => (
          <li key={c.id}>
            {c.title}
            <button onClick={() => remove.mutate(c.id)}>delete {c.title}</button>
          </li>
        ))}
      </ul>
      {history.hasNextPage && <button onClick={() => void history.fetchNextPage()}>more</button>}
    </div>
  );
}

beforeEach(() => localStorage.clear());

describe('content hooks', () => {
  it('when more is asked, then the next page is fetched with the previous cursor and appended', async () => {
    const calls = stubApi({
      ...signedIn,
      'GET /api/contents?workspaceId=1&type=text&q=launch&limit=2': () =>
        answer(200, { items: [item('c1', 'One'), item('c2', 'Two')], nextCursor: 'abc 1' }),
      // the cursor is form-encoded like every query value (URLSearchParams: a space is '+')
      'GET /api/contents?workspaceId=1&type=text&q=launch&limit=2&cursor=abc+1': () =>
        answer(200, { items: [item('c3', 'Three')], nextCursor: null }),
    });
    renderWithProviders(<History />);
    expect(await screen.findByText('Two')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'more' }));
    expect(await screen.findByText('Three')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual([
      'One',
      'Two',
      'Three',
    ]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'more' })).toBeNull());
    expect(calls.filter((c) => c.url.startsWith('/api/contents'))).toHaveLength(2);
  });

  it('when no workspace is selected, then no content list or stats is requested', async () => {
    const calls = stubApi({
      'GET /api/user': () => answer(200, buildUser()),
      'GET /api/user/workspaces': () => answer(200, []),
    });
    function Both() {
      useStats();
      return <History />;
    }
    renderWithProviders(<Both />);
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/user/workspaces'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(
      calls.some((c) => c.url.startsWith('/api/contents') || c.url.startsWith('/api/stats')),
    ).toBe(false);
  });

  it('when an item is deleted, then DELETE is sent and the list is fetched again without it', async () => {
    let items = [item('c1', 'One'), item('c2', 'Two')];
    const calls = stubApi({
      ...signedIn,
      'GET /api/contents?workspaceId=1&type=text&q=launch&limit=2': () =>
        answer(200, { items, nextCursor: null }),
      'DELETE /api/contents/c1': () => {
        items = items.filter((c) => c.id !== 'c1');
        return answer(204);
      },
    });
    renderWithProviders(<History />);
    fireEvent.click(await screen.findByRole('button', { name: 'delete One' }));
    await waitFor(() => expect(screen.queryByText('One')).toBeNull());
    expect(screen.getByText('Two')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/contents/c1')).toBe(true);
  });

  it('when a content, its thread and the stats are read, then each comes from its route', async () => {
    const calls = stubApi({
      ...signedIn,
      'GET /api/contents/c1': () => answer(200, item('c1', 'One')),
      'GET /api/contents/c1/conversation': () =>
        answer(200, [item('c0', 'Zero'), item('c1', 'One')]),
      'GET /api/stats?workspaceId=1': () =>
        answer(200, { totalPrompts: 4, textContent: 7, imagesGenerated: 2 }),
    });
    function Probe() {
      const content = useContent('c1');
      const thread = useConversation('c1');
      const stats = useStats();
      return (
        <p>
          {content.data?.title ?? '-'} / {thread.data?.length ?? '-'} /{' '}
          {stats.data?.textContent ?? '-'}
        </p>
      );
    }
    renderWithProviders(<Probe />);
    expect(await screen.findByText('One / 2 / 7')).toBeTruthy();
    const contentCall = calls.find((c) => c.url === '/api/contents/c1');
    expect(contentCall?.headers['x-workspace-id']).toBe('1');
  });
});
