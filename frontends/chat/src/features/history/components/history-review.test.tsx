import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { buildContent, chatServer } from '../../../test/chat-api';
import { renderChat, setViewportWidth } from '../../../test/render-chat';

// Review states in the chat's history panel (issue 18): a badge per row and a state filter.

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setViewportWidth(1440);
  act(() => dismissToast());
});
afterEach(() => act(() => applyLanguage('en')));

const rows = () =>
  within(
    screen.getByRole('list', { name: /^(History items|Items in de geschiedenis)$/ }),
  ).getAllByRole('button');

const contents = [
  buildContent({ title: 'Plain draft' }),
  buildContent({ title: 'Approved launch', review: { state: 'approved', by: 'admin' } }),
  buildContent({ title: 'Pending launch', review: { state: 'in-review', by: 'admin' } }),
];

describe('history panel review states', () => {
  it('when items load, then each shows its review state; a chosen state lists only those', async () => {
    const { calls } = chatServer({ contents });
    renderChat();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((r) => within(r).getByTestId('review-state').textContent)).toEqual([
      'Draft',
      'Approved',
      'In review',
    ]);

    fireEvent.change(screen.getByLabelText('Review state'), { target: { value: 'approved' } });

    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]!).getByText('Approved launch')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('review=approved'))).toBe(true);
  });

  it('when a state has no contents, then "No matching content" shows', async () => {
    chatServer({ contents });
    renderChat();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('Review state'), {
      target: { value: 'changes-requested' },
    });
    expect(await screen.findByText('No matching content')).toBeTruthy();
  });

  it('when the panel is in Dutch, then the filter and badges read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    chatServer({ contents });
    renderChat();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByLabelText('Reviewstatus')).toBeTruthy();
    expect(rows().map((r) => within(r).getByTestId('review-state').textContent)).toEqual([
      'Concept',
      'Goedgekeurd',
      'In review',
    ]);
  });
});
