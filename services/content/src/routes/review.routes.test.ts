import { ContentItem, ContentsPage } from '@aict/contracts';
import { pendingReviewId } from '../data/collections';
import { repairPending } from '../domain/repair';
import {
  adminOf,
  buildContent,
  buildImage,
  member,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(90_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ HISTORY_PAGE_SIZE: '4' });
});
afterAll(() => h.stop());

async function stored(ws: number, author: Caller, image = false) {
  const c = (image ? buildImage : buildContent)({ workspaceId: ws, userId: author!.uid! });
  await h.store(c);
  return c.id;
}

const review = (ws: number, id: string, as: Caller, action: string, comment?: string) =>
  h.call('POST', `/api/contents/${id}/review?workspaceId=${ws}`, {
    as,
    body: comment === undefined ? { action } : { action, comment },
  });

const stateOf = (res: { body: unknown }) => ContentItem.parse(res.body).review?.state;

async function fetchItem(ws: number, id: string, as: Caller) {
  const res = await h.call('GET', `/api/contents/${id}?workspaceId=${ws}`, { as });
  expect(res.status).toBe(200);
  return ContentItem.parse(res.body);
}

describe('review states', () => {
  it('when a content was never reviewed, then it is a draft', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const id = await stored(ws, author);
    expect((await fetchItem(ws, id, author)).review).toEqual({ state: 'draft' });
  });

  it('when the author submits and an admin approves, then the content is approved, with who and when', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const admin = adminOf(ws);
    const id = await stored(ws, author);

    const submitted = await review(ws, id, author, 'submit');
    const approved = await review(ws, id, admin, 'approve');

    expect(submitted.status).toBe(200);
    expect(stateOf(submitted)).toBe('in-review');
    expect(approved.status).toBe(200);
    const item = await fetchItem(ws, id, author);
    expect(item.review).toEqual({ state: 'approved', by: admin!.uid, at: expect.any(String) });
  });

  it('when an admin requests changes, then the comment is kept and the author can submit again', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const id = await stored(ws, author);
    await review(ws, id, author, 'submit');

    const sent = await review(ws, id, adminOf(ws), 'request-changes', 'Make it shorter');
    const seen = await fetchItem(ws, id, author);
    const again = await review(ws, id, author, 'submit');

    expect(sent.status).toBe(200);
    expect(seen.review).toMatchObject({ state: 'changes-requested', comment: 'Make it shorter' });
    expect(again.status).toBe(200);
    expect(stateOf(again)).toBe('in-review');
  });

  it('when changes are requested without a comment or with one too long, then 400 and the state stays', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const id = await stored(ws, author);
    await review(ws, id, author, 'submit');

    const none = await review(ws, id, adminOf(ws), 'request-changes');
    const blank = await review(ws, id, adminOf(ws), 'request-changes', '   ');
    const long = await review(ws, id, adminOf(ws), 'request-changes', 'x'.repeat(1001));
    const badAction = await review(ws, id, adminOf(ws), 'publish');

    expect([none.status, blank.status, long.status, badAction.status]).toEqual([
      400, 400, 400, 400,
    ]);
    expect((await fetchItem(ws, id, author)).review?.state).toBe('in-review');
  });

  it('when someone other than the author submits, then 403; a member who is not an admin cannot approve', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const id = await stored(ws, author);

    const byOther = await review(ws, id, userOf(ws), 'submit');
    const byAdmin = await review(ws, id, adminOf(ws), 'submit');
    await review(ws, id, author, 'submit');
    const approvedByMember = await review(ws, id, userOf(ws), 'approve');
    const approvedByAuthor = await review(ws, id, author, 'approve');
    const changesByMember = await review(ws, id, userOf(ws), 'request-changes', 'No');

    expect([byOther.status, byAdmin.status]).toEqual([403, 403]);
    expect([approvedByMember.status, approvedByAuthor.status, changesByMember.status]).toEqual([
      403, 403, 403,
    ]);
    expect((await fetchItem(ws, id, author)).review?.state).toBe('in-review');
  });

  it('when an admin of another workspace reviews, then 404; a super admin may approve', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const id = await stored(ws, author);
    await review(ws, id, author, 'submit');
    const other = newWorkspaceId();

    const foreign = await h.call('POST', `/api/contents/${id}/review?workspaceId=${other}`, {
      as: adminOf(other),
      body: { action: 'approve' },
    });
    const bySuper = await review(ws, id, superAdmin(), 'approve');

    expect(foreign.status).toBe(404);
    expect(bySuper.status).toBe(200);
    expect(stateOf(bySuper)).toBe('approved');
  });

  it('when a change does not fit the state, then 409 CONTENT.REVIEW_CONFLICT', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const admin = member({ [ws]: 'admin' });
    const id = await stored(ws, author);

    const approveDraft = await review(ws, id, admin, 'approve');
    const changesOnDraft = await review(ws, id, admin, 'request-changes', 'Why');
    await review(ws, id, author, 'submit');
    const submitTwice = await review(ws, id, author, 'submit');
    await review(ws, id, admin, 'approve');
    const approveTwice = await review(ws, id, admin, 'approve');
    const submitApproved = await review(ws, id, author, 'submit');

    for (const res of [approveDraft, changesOnDraft, submitTwice, approveTwice, submitApproved]) {
      expect(res.status).toBe(409);
      expect((res.body as { code: string }).code).toBe('CONTENT.REVIEW_CONFLICT');
    }
  });

  it('when two admins decide on the same content at once, then exactly one wins and the other gets 409', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const id = await stored(ws, author);
    await review(ws, id, author, 'submit');

    const answers = await Promise.all([
      review(ws, id, adminOf(ws), 'approve'),
      review(ws, id, adminOf(ws), 'request-changes', 'Redo'),
      review(ws, id, adminOf(ws), 'approve'),
      review(ws, id, adminOf(ws), 'request-changes', 'Again'),
    ]);

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await fetchItem(ws, id, author)).review?.state).toBe(stateOf(winner));
  });

  it('when history is filtered by review state, then only those contents are listed, with their badge, across pages', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await stored(ws, author, i % 2 === 0));
    for (const id of [ids[1]!, ids[4]!, ids[8]!]) await review(ws, id, author, 'submit');
    await review(ws, ids[4]!, adminOf(ws), 'approve');

    const list = async (query: string) => {
      const res = await h.call('GET', `/api/contents?workspaceId=${ws}${query}`, { as: author });
      expect(res.status).toBe(200);
      return ContentsPage.parse(res.body);
    };
    const inReview = await list('&review=in-review&limit=1');
    const rest = await list(
      `&review=in-review&limit=5&cursor=${encodeURIComponent(inReview.nextCursor!)}`,
    );
    const approvedImages = await list('&review=approved&type=image');
    const drafts = await list('&review=draft&limit=100');
    const all = await list('&limit=100');
    const bad = await h.call('GET', `/api/contents?workspaceId=${ws}&review=done`, { as: author });

    expect([...inReview.items, ...rest.items].map((i) => i.id)).toEqual([ids[8], ids[1]]);
    expect(rest.nextCursor).toBeNull();
    expect(approvedImages.items.map((i) => [i.id, i.review?.state])).toEqual([
      [ids[4], 'approved'],
    ]);
    expect(drafts.items).toHaveLength(7);
    expect(all.items.find((i) => i.id === ids[1])?.review?.state).toBe('in-review');
    expect(bad.status).toBe(400);
  });
});

describe('review repair', () => {
  it('when the service stopped after a review change but before the lists had it, then the repair brings the lists and counts up to date', async () => {
    const ws = newWorkspaceId();
    const author = userOf(ws);
    const id = await stored(ws, author);
    const key = String(ws);
    // What a change leaves when the process dies right after writing the review chain.
    await h.domain.pending.save({
      _id: pendingReviewId(id, 1),
      op: 'review',
      key,
      at: new Date(Date.now() - 60_000),
      contentId: id,
    });
    await h.domain.reviews.append(id, 1, {
      state: 'in-review',
      by: author!.uid!,
      at: new Date().toISOString(),
    });
    const listed = async () => {
      const res = await h.call('GET', `/api/contents?workspaceId=${ws}&review=in-review`, {
        as: author,
      });
      return ContentsPage.parse(res.body).items.map((i) => i.id);
    };
    expect(await listed()).toEqual([]);

    await repairPending(h.domain, 1_000);

    expect(await listed()).toEqual([id]);
    expect((await h.domain.counters.findCounts(key))?.reviews).toEqual({ 'in-review': 1 });
    expect(await h.domain.pending.findById(pendingReviewId(id, 1))).toBeNull();
  });
});
