import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import {
  admin,
  buildContent,
  json,
  member,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

// Review states in the history (issue 18): the badge, the filter and the actions.

const draft = buildContent({ id: 'd1', title: 'Draft post', userId: 'member' });
const waiting = buildContent({
  id: 'w1',
  title: 'Waiting post',
  userId: 'member',
  review: { state: 'in-review', by: 'member', at: '2026-01-02T10:00:00.000Z' },
});
const sentBack = buildContent({
  id: 's1',
  title: 'Sent back post',
  userId: 'member',
  review: { state: 'changes-requested', comment: 'Shorter please', by: 'admin' },
});

beforeEach(() => localStorage.clear());
afterEach(() => act(() => applyLanguage('en')));

const rowOf = (title: string) => screen.getByRole('button', { name: title }).closest('li')!;

describe('History review states', () => {
  it('when the list shows contents, then each has its review state badge, the comment on a sent-back one', async () => {
    stubGenerationApi(member, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [draft, waiting, sentBack], nextCursor: null }),
    });
    renderGeneration('/history?type=text');
    await screen.findByText('Draft post');
    expect(within(rowOf('Draft post')).getByTestId('review-state').textContent).toBe('Draft');
    expect(within(rowOf('Waiting post')).getByTestId('review-state').textContent).toBe('In review');
    const back = within(rowOf('Sent back post')).getByTestId('review-state');
    expect(back.textContent).toBe('Changes requested');
    expect(back.getAttribute('title')).toBe('Changes requested: Shorter please');
  });

  it('when a review state is chosen, then the list is asked with that state', async () => {
    const calls = stubGenerationApi(member, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [draft, waiting], nextCursor: null }),
      'GET /api/contents?workspaceId=1&type=text&review=in-review': () =>
        json({ items: [waiting], nextCursor: null }),
    });
    renderGeneration('/history?type=text');
    await screen.findByText('Draft post');
    fireEvent.change(screen.getByLabelText('Review state'), { target: { value: 'in-review' } });
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('review=in-review'))).toBe(true));
    expect(await screen.findByText('Waiting post')).toBeTruthy();
    expect(screen.queryByText('Draft post')).toBeNull();
  });

  it('when the author submits a draft, then the review route is called with submit; others see no submit button', async () => {
    const other = buildContent({ id: 'o1', title: 'Other post', userId: 'admin' });
    const calls = stubGenerationApi(member, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [draft, other, waiting], nextCursor: null }),
      'POST /api/contents/d1/review': () =>
        json({ ...draft, review: { state: 'in-review', by: 'member' } }),
    });
    renderGeneration('/history?type=text');
    await screen.findByText('Draft post');
    expect(screen.queryByRole('button', { name: 'Submit "Other post" for review' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve "Waiting post"' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit "Draft post" for review' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ action: 'submit' }),
    );
    expect(await screen.findByText('Submitted for review')).toBeTruthy();
  });

  it('when an admin requests changes, then a comment is required and sent', async () => {
    const calls = stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [waiting], nextCursor: null }),
      'POST /api/contents/w1/review': () =>
        json({ ...waiting, review: { state: 'changes-requested', comment: 'Add a title' } }),
    });
    renderGeneration('/history?type=text');
    await screen.findByText('Waiting post');
    expect(screen.getByRole('button', { name: 'Approve "Waiting post"' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Request changes to "Waiting post"' }));
    const dialog = await screen.findByRole('dialog');
    const send = within(dialog).getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Comment'), {
      target: { value: 'Add a title' },
    });
    fireEvent.click(send);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        action: 'request-changes',
        comment: 'Add a title',
      }),
    );
  });

  it('when the page is in Dutch, then the badge, the filter and the actions read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    stubGenerationApi(admin, {
      'GET /api/contents?workspaceId=1&type=text': () =>
        json({ items: [waiting, draft], nextCursor: null }),
    });
    renderGeneration('/history?type=text');
    await screen.findByText('Waiting post');
    expect(screen.getByLabelText('Reviewstatus')).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Wijzigingen gevraagd' })).toBeTruthy();
    expect(within(rowOf('Waiting post')).getByTestId('review-state').textContent).toBe('In review');
    expect(within(rowOf('Draft post')).getByTestId('review-state').textContent).toBe('Concept');
    expect(screen.getByRole('button', { name: '"Waiting post" goedkeuren' })).toBeTruthy();
  });
});
