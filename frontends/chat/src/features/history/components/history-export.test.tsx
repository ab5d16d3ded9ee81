import '../../../test/setup';
import { act, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { buildContent, chatServer } from '../../../test/chat-api';
import { renderChat, setViewportWidth } from '../../../test/render-chat';

// Issue 18 in the chat's history panel: a badge on conversations that use words to avoid,
// and the conversation in view exports from its row (Markdown, JSON, Word).

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setViewportWidth(1440);
  act(() => dismissToast());
});
afterEach(() => act(() => applyLanguage('en')));

const list = () => screen.getByRole('list', { name: 'History items' });
const rowOf = (title: string) =>
  within(list())
    .getByRole('button', { name: new RegExp(`^${title}`) })
    .closest('li')!;

function server() {
  const first = buildContent({ id: 'k1', title: 'Kerst', content: 'Eerste antwoord' });
  const reply = buildContent({
    id: 'k2',
    title: 'Kerst',
    content: 'Synergy!',
    parentId: 'k1',
    voiceFlags: ['synergy'],
  });
  const other = buildContent({ id: 'z1', title: 'Zomer', content: 'Zon' });
  return chatServer({
    contents: [reply, other, first],
    threads: { k1: [first, reply], k2: [first, reply] },
  });
}

describe('history panel: brand voice badge and export', () => {
  it('when a turn of a conversation holds words to avoid, then its row has the badge; others not', async () => {
    server();
    renderChat();

    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(2));

    const badge = within(rowOf('Kerst')).getByTestId('voice-flags');
    expect(badge.getAttribute('title')).toBe('Contains words to avoid: synergy');
    expect(within(rowOf('Zomer')).queryByTestId('voice-flags')).toBeNull();
  });

  it('when a conversation is in view, then only its row offers the three exports', async () => {
    server();
    renderChat('/?conversation=k1');

    const exports = await waitFor(() =>
      within(rowOf('Kerst')).getByRole('group', { name: 'Export' }),
    );
    expect(
      within(exports)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Export "Kerst" as Markdown', 'Export "Kerst" as JSON', 'Export "Kerst" as Word']);
    expect(within(rowOf('Zomer')).queryByRole('group', { name: 'Export' })).toBeNull();
  });

  it('when the language is Dutch, then the badge and exports read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    server();
    renderChat('/?conversation=k1');

    const row = await waitFor(() => {
      const found = within(screen.getByRole('list', { name: 'Items in de geschiedenis' }))
        .getByRole('button', { name: /^Kerst/ })
        .closest('li')!;
      within(found).getByRole('group', { name: 'Exporteren' });
      return found;
    });

    expect(within(row).getByTestId('voice-flags').textContent).toBe('Merkstem');
    expect(within(row).getByRole('button', { name: '"Kerst" exporteren als Word' })).toBeTruthy();
  });
});
