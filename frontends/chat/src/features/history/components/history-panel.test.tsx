import '../../../test/setup';
import path from 'node:path';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer, loadStylesheet } from '@aict/web-kit/testing';
import { buildContent, chatServer } from '../../../test/chat-api';
import { renderChat, setViewportWidth } from '../../../test/render-chat';
import { historyFooter } from '../lib/use-debounced-value';

// SPEC §2 Content History panel, §8 its empty/error texts, §9 widths, truncation, skeletons.

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setViewportWidth(1440);
  act(() => dismissToast());
});

const panel = () => screen.getByRole('complementary', { name: 'Content History' });
const items = () =>
  within(screen.getByRole('list', { name: 'History items' })).getAllByRole('button');
const location = () => screen.getByRole('status', { name: 'location' }).textContent;

describe('history panel', () => {
  it('when the history loads, then 6 skeleton rows show', async () => {
    chatServer({
      routes: { 'GET /api/contents?workspaceId=1': () => new Promise(() => undefined) },
    });
    renderChat();
    await waitFor(() => expect(screen.getAllByTestId('history-skeleton')).toHaveLength(6));
  });

  it('when items load, then each shows its cut title, type, preview, model, language and relative time', async () => {
    const longTitle = 'A'.repeat(70);
    chatServer({
      contents: [
        buildContent({
          title: longTitle,
          content: 'x'.repeat(100),
          model: 'gpt-4o',
          language: 'nl',
        }),
        buildContent({
          title: 'Sunset',
          contentType: 'image',
          content: '/api/images/i1?workspaceId=1',
          model: 'dall-e-3',
          language: 'en',
        }),
      ],
    });
    renderChat();
    await waitFor(() => expect(items()).toHaveLength(2));
    const [text, image] = items();
    expect(within(text!).getByText(`${'A'.repeat(60)}...`)).toBeTruthy();
    expect(within(text!).getByText(`${'x'.repeat(80)}...`)).toBeTruthy();
    expect(within(text!).getByText('text')).toBeTruthy();
    expect(within(text!).getByText('gpt-4o')).toBeTruthy();
    expect(within(text!).getByText('nl')).toBeTruthy();
    expect(within(text!).getByText('5 minutes ago')).toBeTruthy();
    expect(within(image!).getByText('Image generated')).toBeTruthy();
    expect(image!.querySelector('img')?.getAttribute('src')).toBe('/api/images/i1?workspaceId=1');
    expect(within(panel()).getByText('2 item(s)')).toBeTruthy();
  });

  it('when the user searches, then the server is asked with q after a pause and the footer names the query', async () => {
    const { calls } = chatServer({
      contents: [buildContent({ title: 'Kerstcampagne' }), buildContent({ title: 'Zomer' })],
    });
    renderChat();
    await waitFor(() => expect(items()).toHaveLength(2));
    fireEvent.change(screen.getByPlaceholderText('Search content...'), {
      target: { value: 'kerst' },
    });
    await waitFor(() =>
      expect(within(panel()).getByText('1 item(s) matching "kerst"')).toBeTruthy(),
    );
    expect(calls.map((c) => c.url)).toContain('/api/contents?workspaceId=1&q=kerst');
    expect(calls.filter((c) => c.url.includes('q=k')).map((c) => c.url)).toEqual([
      '/api/contents?workspaceId=1&q=kerst',
    ]);

    fireEvent.change(screen.getByPlaceholderText('Search content...'), {
      target: { value: 'winter' },
    });
    expect(await within(panel()).findByText('No matching content')).toBeTruthy();
    expect(within(panel()).getByText('Try adjusting your search terms')).toBeTruthy();
  });

  it('when there is no content, then "No content yet" shows', async () => {
    chatServer();
    renderChat();
    expect(await within(panel()).findByText('No content yet')).toBeTruthy();
    expect(within(panel()).getByText('Generate some content to see it here')).toBeTruthy();
    expect(within(panel()).getByText('0 item(s)')).toBeTruthy();
  });

  it('when the history fails, then "Failed to load conversations" shows with a retry', async () => {
    chatServer({ routes: { 'GET /api/contents?workspaceId=1': () => answer(500, 'boom') } });
    renderChat();
    const alert = await within(panel()).findByRole('alert');
    expect(alert.textContent).toContain('Failed to load conversations');
    expect(alert.textContent).toContain('Please try again later');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('when the end of the list comes into view, then the next page loads', async () => {
    const observers: Array<(entries: Array<{ isIntersecting: boolean }>) => void> = [];
    (window as unknown as Record<string, unknown>).IntersectionObserver = class {
      constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
        observers.push(callback);
      }
      observe() {}
      disconnect() {}
    };
    const contents = Array.from({ length: 5 }, () => buildContent());
    const { calls } = chatServer({ contents, pageSize: 3 });
    renderChat();
    await waitFor(() => expect(items()).toHaveLength(3));
    act(() => observers.at(-1)!([{ isIntersecting: true }]));
    await waitFor(() => expect(items()).toHaveLength(5));
    expect(calls.map((c) => c.url)).toContain('/api/contents?workspaceId=1&cursor=3');
    delete (window as unknown as Record<string, unknown>).IntersectionObserver;
  });

  it('when a text item is clicked, then its conversation loads and conversation={id} is pushed', async () => {
    const item = buildContent({
      id: 'k1',
      title: 'Kerst',
      content: 'Ho ho',
      metadata: { inputs: { message: 'Idee?' } },
    });
    chatServer({ contents: [item], threads: { k1: [item] } });
    renderChat();
    await waitFor(() => expect(items()).toHaveLength(1));
    fireEvent.click(items()[0]!);
    expect(await screen.findByText('Viewing conversation history')).toBeTruthy();
    expect(location()).toBe('/?conversation=k1');
    expect(screen.getByText('Gesprek geladen met 2 berichten: "Kerst"')).toBeTruthy();
  });

  it('when an image item is clicked, then a dialog shows the image with "Download Image"', async () => {
    chatServer({
      contents: [
        buildContent({
          title: 'Sunset',
          contentType: 'image',
          content: '/api/images/i1?workspaceId=1',
          model: 'dall-e-3',
        }),
      ],
    });
    renderChat();
    await waitFor(() => expect(items()).toHaveLength(1));
    fireEvent.click(items()[0]!);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('img', { name: 'Sunset' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Download Image' })).toBeTruthy();
  });

  it('when pinned and collapsed on a large screen, then it shrinks to a strip and pinning opens it again', async () => {
    chatServer();
    renderChat();
    await within(panel()).findByText('No content yet');
    fireEvent.click(screen.getByRole('button', { name: 'Unpin history panel' }));
    expect(panel().getAttribute('data-pinned')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Collapse history panel' }));
    expect(panel().getAttribute('data-collapsed')).toBe('true');
    expect(within(panel()).queryByPlaceholderText('Search content...')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand history panel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Pin history panel' }));
    expect(panel().getAttribute('data-pinned')).toBe('true');
    expect(panel().getAttribute('data-collapsed')).toBe('false');
  });

  it('when the window is narrower than 1024 px, then it is pinned and open with no pin or collapse control', async () => {
    setViewportWidth(900);
    chatServer();
    renderChat();
    await within(panel()).findByText('No content yet');
    expect(panel().getAttribute('data-pinned')).toBe('true');
    expect(screen.queryByRole('button', { name: /pin history panel/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Collapse history panel' })).toBeNull();
  });

  it('when on a phone a text item is chosen, then the panel closes', async () => {
    setViewportWidth(375);
    const item = buildContent({ id: 'k1', title: 'Kerst' });
    chatServer({ contents: [item], threads: { k1: [item] } });
    renderChat();
    await screen.findByRole('heading', { name: 'Acme GPT' });
    expect(screen.queryByRole('complementary', { name: 'Content History' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'History' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    fireEvent.click(items()[0]!);
    expect(await screen.findByText('Viewing conversation history')).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: 'Content History' })).toBeNull();
  });

  it('when "New Chat" is clicked, then the chat is emptied', async () => {
    const item = buildContent({ id: 'k1', title: 'Kerst' });
    chatServer({ contents: [item], threads: { k1: [item] } });
    renderChat('/?conversation=k1');
    await screen.findByText('Viewing conversation history');
    fireEvent.click(within(panel()).getByRole('button', { name: 'New Chat' }));
    expect(await screen.findByText('How can I help you today?')).toBeTruthy();
    expect(location()).toBe('/');
  });
  it('when a conversation has several turns, then it is one row showing the latest turn and the number of turns', async () => {
    const first = buildContent({ id: 't1', title: 'Kerst', content: 'Eerste antwoord' });
    const second = buildContent({
      id: 't2',
      title: 'Kerst',
      content: 'Tweede antwoord',
      parentId: 't1',
    });
    const third = buildContent({
      id: 't3',
      title: 'Kerst',
      content: 'Derde antwoord',
      parentId: 't2',
    });
    const other = buildContent({ id: 'z1', title: 'Zomer', content: 'Zon' });
    chatServer({
      contents: [third, other, second, first],
      threads: { t3: [first, second, third] },
    });
    renderChat();

    await waitFor(() => expect(items()).toHaveLength(2));
    const [kerst, zomer] = items();
    expect(within(kerst!).getByText('Derde antwoord')).toBeTruthy();
    expect(within(kerst!).getByText('3 turns')).toBeTruthy();
    expect(within(zomer!).getByText('1 turn')).toBeTruthy();
    expect(screen.queryByText('Tweede antwoord')).toBeNull();
    expect(within(panel()).getByText('2 item(s)')).toBeTruthy();
    fireEvent.click(kerst!);
    await waitFor(() => expect(location()).toBe('/?conversation=t3'));
  });

  it('when the list shows, then it has no browser list indent', async () => {
    const removeCss = loadStylesheet(path.resolve(__dirname, 'history.module.css'));
    chatServer({ contents: [buildContent()] });
    renderChat();
    await waitFor(() => expect(items()).toHaveLength(1));
    const list = getComputedStyle(screen.getByRole('list', { name: 'History items' }));
    expect(list.paddingLeft).toBe('0px');
    expect(list.marginLeft).toBe('0px');
    removeCss();
  });
});

describe('historyFooter', () => {
  it('when a search is active, then the footer adds the query', () => {
    expect(historyFooter(1, '')).toBe('1 item(s)');
    expect(historyFooter(3, ' kerst ')).toBe('3 item(s) matching "kerst"');
  });
});
