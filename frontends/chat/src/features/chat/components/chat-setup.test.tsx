import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { answer, buildUser } from '@aict/web-kit/testing';
import { chatServer, generations } from '../../../test/chat-api';
import { renderChat, setViewportWidth } from '../../../test/render-chat';

// First run and polish of the chat screen: a workspace without a default prompt says so before
// anything is typed; the message box is focused on load; answers can be copied and regenerated.

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setViewportWidth(1440);
  act(() => dismissToast());
  act(() => applyLanguage('en'));
});
afterEach(() => act(() => applyLanguage('en')));

const box = () => screen.getByPlaceholderText('Ask me a question') as HTMLTextAreaElement;

async function ready() {
  expect(await screen.findByRole('heading', { name: 'Acme GPT' })).toBeTruthy();
  await waitFor(() => expect(box().disabled).toBe(false));
}

async function send(text: string) {
  fireEvent.change(box(), { target: { value: text } });
  await act(async () => {
    fireEvent.keyDown(box(), { key: 'Enter' });
  });
}

const answers = () =>
  within(screen.getByRole('list', { name: 'Messages' }))
    .getAllByRole('listitem', { name: 'Assistant' })
    .map((item) => item.textContent);

describe('a workspace without a default prompt', () => {
  it('when a member opens the chat, then it says chat is not set up and whom to ask, with the box disabled and the reason read with it', async () => {
    const { calls } = chatServer({ defaultPrompt: null });
    renderChat();
    const notice = await screen.findByRole('region', { name: 'Chat is not set up yet' });
    expect(within(notice).getByText(/Ask your workspace administrator/)).toBeTruthy();
    expect(within(notice).queryByRole('link')).toBeNull();
    expect(box().disabled).toBe(true);
    const reason = document.getElementById(box().getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('Chat is off until this workspace has a default prompt.');
    expect(
      (screen.getByRole('button', { name: 'Send message' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(generations(calls)).toHaveLength(0);
  });

  it('when a workspace admin opens the chat, then the notice links to Prompts', async () => {
    chatServer({
      defaultPrompt: null,
      routes: {
        'GET /api/user': () => answer(200, buildUser({ workspaceRoles: { '1': 'admin' } })),
      },
    });
    renderChat();
    const notice = await screen.findByRole('region', { name: 'Chat is not set up yet' });
    expect(within(notice).getByText(/Open Prompts and mark one as the default/)).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Open Prompts' }).getAttribute('href')).toBe(
      '/prompts',
    );
  });

  it('when the language is Dutch, then the notice reads in Dutch', async () => {
    act(() => applyLanguage('nl'));
    chatServer({ defaultPrompt: null });
    renderChat();
    const notice = await screen.findByRole('region', { name: 'Chat is nog niet ingesteld' });
    expect(within(notice).getByText(/Vraag de beheerder van je werkruimte/)).toBeTruthy();
    expect(
      screen.getByText('De chat staat uit tot deze werkruimte een standaardprompt heeft.'),
    ).toBeTruthy();
  });

  it('when the workspace has a default prompt, then there is no notice and the box is focused', async () => {
    chatServer();
    renderChat();
    await ready();
    expect(screen.queryByRole('region', { name: 'Chat is not set up yet' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(box()));
  });

  it('when the box takes the focus, then the page does not scroll to it (the set-up checklist above the chat stays in view)', async () => {
    // jsdom lays nothing out: what is asserted is the browser's instruction not to scroll.
    const focus = jest.spyOn(HTMLTextAreaElement.prototype, 'focus');
    try {
      chatServer();
      renderChat();
      await ready();
      await waitFor(() => expect(document.activeElement).toBe(box()));
      expect(focus.mock.calls.every(([options]) => options?.preventScroll === true)).toBe(true);
      expect(focus).toHaveBeenCalled();
    } finally {
      focus.mockRestore();
    }
  });

  it('when the person is already in another control as the chat becomes ready, then the box leaves the focus there', async () => {
    // A menu opened in the header while the chat loads (the workspace switcher) closes when
    // it loses the focus: the box must not take it.
    const elsewhere = document.createElement('button');
    elsewhere.textContent = 'Workspace: Acme';
    document.body.append(elsewhere);
    try {
      chatServer();
      renderChat();
      act(() => elsewhere.focus());
      await ready();
      await act(async () => undefined);
      expect(document.activeElement).toBe(elsewhere);
    } finally {
      elsewhere.remove();
    }
  });
});

describe('answer actions', () => {
  it('when Copy answer is chosen, then the answer text goes to the clipboard', async () => {
    const writeText = jest.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    chatServer();
    renderChat();
    await ready();
    await send('Hallo');
    const copy = await screen.findByRole('button', { name: 'Copy answer' });
    await act(async () => copy.click());
    expect(writeText).toHaveBeenCalledWith('Antwoord 1');
    expect(await screen.findByText('Copied to the clipboard')).toBeTruthy();
  });

  it('when Regenerate is chosen, then the last user message is sent again from the same point and its new answer replaces the old one', async () => {
    const { calls } = chatServer();
    renderChat();
    await ready();
    await send('Eerste vraag');
    await screen.findByText('Antwoord 1');
    await send('Tweede vraag');
    await screen.findByText('Antwoord 2');
    expect(screen.getAllByRole('button', { name: 'Regenerate answer' })).toHaveLength(1);

    await act(async () => screen.getByRole('button', { name: 'Regenerate answer' }).click());
    await screen.findByText('Antwoord 3');

    const posts = generations(calls);
    expect(posts).toHaveLength(3);
    const [, second, again] = posts.map((call) => call.body as Record<string, unknown>);
    expect(again).toEqual({ ...second, attachments: [] });
    expect(again!.message).toBe('Tweede vraag');
    expect(answers()).toEqual([
      expect.stringContaining('Antwoord 1'),
      expect.stringContaining('Antwoord 3'),
    ]);
  });

  it('when the first answer is regenerated, then the first message is generated again', async () => {
    const { calls } = chatServer();
    renderChat();
    await ready();
    await send('Vraag');
    await screen.findByText('Antwoord 1');
    await act(async () => screen.getByRole('button', { name: 'Regenerate answer' }).click());
    await screen.findByText('Antwoord 2');
    const posts = generations(calls);
    expect(posts.map((call) => call.url)).toEqual(['/api/generate', '/api/generate']);
    expect((posts[1]!.body as { inputs: unknown }).inputs).toEqual({ message: 'Vraag' });
    expect(answers()).toHaveLength(1);
  });
});
