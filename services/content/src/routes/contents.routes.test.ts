import { randomUUID } from 'node:crypto';
import { ContentsPage } from '@aict/contracts';
import { storeContent } from '../domain/store-content';
import {
  adminOf,
  buildContent,
  buildImage,
  member,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  waitFor,
  type Caller,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(90_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ HISTORY_PAGE_SIZE: '10' });
});
afterAll(() => h.stop());

const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

async function page(as: Caller, ws: number, query = '') {
  const res = await h.call('GET', `/api/contents?workspaceId=${ws}${query}`, { as });
  expect(res.status).toBe(200);
  return ContentsPage.parse(res.body);
}

/** Every item of the list, following nextCursor. */
async function all(as: Caller, ws: number, query = '') {
  const out: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const p: ContentsPage = await page(
      as,
      ws,
      `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    out.push(...ids(p.items));
    if (!p.nextCursor) return out;
    cursor = p.nextCursor;
  }
}

describe('history list', () => {
  it('when a workspace has more contents than a page holds, then the list pages through all of them, newest first, without repeats', async () => {
    const ws = newWorkspaceId();
    const stored: string[] = [];
    for (let i = 0; i < 43; i++) {
      const c = i % 3 === 0 ? buildImage({ workspaceId: ws }) : buildContent({ workspaceId: ws });
      await storeContent(h.domain, c);
      stored.push(c.id);
    }
    const newestFirst = [...stored].reverse();

    const first = await page(userOf(ws), ws, '&limit=7');
    const everything = await all(userOf(ws), ws, '&limit=6');
    const images = await all(userOf(ws), ws, '&type=image&limit=100');
    const texts = await all(userOf(ws), ws, '&type=text&limit=4');

    expect(ids(first.items)).toEqual(newestFirst.slice(0, 7));
    expect(everything).toEqual(newestFirst);
    expect(images).toEqual(newestFirst.filter((_, i) => (42 - i) % 3 === 0));
    expect(texts).toEqual(newestFirst.filter((_, i) => (42 - i) % 3 !== 0));
  });

  it('when a content arrives late (older than the newest), then it is listed at its own time', async () => {
    const ws = newWorkspaceId();
    const old = buildContent({ workspaceId: ws });
    const newer = buildContent({ workspaceId: ws });
    await h.store(newer);
    await h.store(old);

    expect(ids((await page(userOf(ws), ws)).items)).toEqual([newer.id, old.id]);
  });

  it('when the list is read, then items carry the preview (first 80 characters), the image URL, and no nulls', async () => {
    const ws = newWorkspaceId();
    const long = buildContent({ workspaceId: ws, content: 'x'.repeat(300), promptId: 'p1' });
    const image = buildImage({ workspaceId: ws });
    await h.store(long);
    await h.store(image);

    const [img, text] = (await page(userOf(ws), ws)).items;

    expect(text).toMatchObject({
      id: long.id,
      content: 'x'.repeat(80),
      promptId: 'p1',
      language: 'en',
    });
    expect(text).not.toHaveProperty('parentId');
    expect(img).toMatchObject({ id: image.id, content: image.content, contentType: 'image' });
    const full = await h.call('GET', `/api/contents/${long.id}`, { as: userOf(ws) });
    expect(full.body.content).toBe('x'.repeat(300));
  });

  it('when the workspace is named by X-Workspace-ID only, then that workspace is listed', async () => {
    const ws = newWorkspaceId();
    const c = buildContent({ workspaceId: ws });
    await h.store(c);

    const res = await h.call('GET', '/api/contents', {
      as: userOf(ws, { ws: null }),
      headers: { 'x-workspace-id': String(ws) },
    });

    expect(ids(res.body.items)).toEqual([c.id]);
  });

  it('when the cursor is not one the service gave, then 400', async () => {
    const ws = newWorkspaceId();
    const res = await h.call('GET', `/api/contents?workspaceId=${ws}&cursor=nonsense`, {
      as: userOf(ws),
    });
    expect(res.status).toBe(400);
  });
});

describe('search', () => {
  it('when searching, then titles match case-insensitively, text contents match, image contents do not, newest first', async () => {
    const ws = newWorkspaceId();
    const byTitle = buildContent({ workspaceId: ws, title: 'Summer SALE banner' });
    const byText = buildContent({ workspaceId: ws, content: 'Our sale starts Monday' });
    const imageByUrl = buildImage({ workspaceId: ws, title: 'A cat', content: '/api/images/sale' });
    const imageByTitle = buildImage({ workspaceId: ws, title: 'Sale poster' });
    const other = buildContent({ workspaceId: ws, title: 'Winter', content: 'nothing here' });
    for (const c of [byTitle, byText, imageByUrl, imageByTitle, other]) await h.store(c);

    const found = await page(userOf(ws), ws, '&q=SaLe');
    const images = await page(userOf(ws), ws, '&q=sale&type=image');

    expect(ids(found.items)).toEqual([imageByTitle.id, byText.id, byTitle.id]);
    expect(ids(images.items)).toEqual([imageByTitle.id]);
  });

  it('when the query holds regex characters, then they match literally', async () => {
    const ws = newWorkspaceId();
    const literal = buildContent({ workspaceId: ws, title: 'Price (a+b)*? [x] $5' });
    const decoy = buildContent({ workspaceId: ws, title: 'aab xxxx 5' });
    await h.store(literal);
    await h.store(decoy);

    expect(ids((await page(userOf(ws), ws, `&q=${encodeURIComponent('(a+b)*?')}`)).items)).toEqual([
      literal.id,
    ]);
    expect(ids((await page(userOf(ws), ws, `&q=${encodeURIComponent('.*')}`)).items)).toEqual([]);
    expect(ids((await page(userOf(ws), ws, `&q=${encodeURIComponent('[x] $5')}`)).items)).toEqual([
      literal.id,
    ]);
  });

  it('when matches span many pages, then the cursor continues the search where it stopped; a deleted content is no longer found', async () => {
    const ws = newWorkspaceId();
    const matching: string[] = [];
    for (let i = 0; i < 60; i++) {
      const hit = i % 4 === 0;
      const c = buildContent({ workspaceId: ws, title: hit ? `Needle ${i}` : `Hay ${i}` });
      await storeContent(h.domain, c);
      if (hit) matching.unshift(c.id);
    }

    expect(await all(userOf(ws), ws, '&q=needle&limit=4')).toEqual(matching);

    const removed = await h.call('DELETE', `/api/contents/${matching[3]}`, { as: adminOf(ws) });
    expect(removed.status).toBe(204);
    expect(await all(userOf(ws), ws, '&q=needle&limit=4')).toEqual(
      matching.filter((_, i) => i !== 3),
    );
  });
});

describe('conversation', () => {
  it('when a thread has replies, then the conversation of any of its contents is the whole thread, oldest first', async () => {
    const ws = newWorkspaceId();
    const first = buildContent({ workspaceId: ws, metadata: { inputs: { message: 'Hi' } } });
    const turns = [first];
    for (let i = 0; i < 4; i++) {
      const prev = turns[turns.length - 1]!;
      turns.push(
        buildContent({
          workspaceId: ws,
          parentId: prev.id,
          threadId: first.id,
          metadata: { originalMessage: `Reply ${i}` },
        }),
      );
    }
    // Arrival order differs from the order of the thread.
    for (const c of [turns[2], turns[0], turns[4], turns[1], turns[3]]) await h.store(c!);

    const fromLast = await h.call('GET', `/api/contents/${turns[4]!.id}/conversation`, {
      as: userOf(ws),
    });
    const fromFirst = await h.call('GET', `/api/contents/${first.id}/conversation`, {
      as: userOf(ws),
    });

    expect(fromLast.status).toBe(200);
    expect(ids(fromLast.body)).toEqual(ids(turns));
    expect(ids(fromFirst.body)).toEqual(ids(turns));
    expect(fromLast.body[0].metadata).toEqual({ inputs: { message: 'Hi' } });
    expect(fromLast.body[1]).toMatchObject({
      content: turns[1]!.content,
      metadata: { originalMessage: 'Reply 0' },
    });
  });
});

describe('workspace scoping', () => {
  it('when a content of another workspace is asked for, then it is not found: by id, in its conversation, in lists and searches', async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const theirs = buildContent({ workspaceId: other, title: 'Secret plan' });
    await h.store(theirs);
    const both = member({ [ws]: 'admin', [other]: 'user' });

    const byId = await h.call('GET', `/api/contents/${theirs.id}?workspaceId=${ws}`, { as: both });
    const byHeader = await h.call('GET', `/api/contents/${theirs.id}`, {
      as: adminOf(ws),
      headers: { 'x-workspace-id': String(ws) },
    });
    const conversation = await h.call('GET', `/api/contents/${theirs.id}/conversation`, {
      as: adminOf(ws),
    });
    const superAdminInWs = await h.call('GET', `/api/contents/${theirs.id}?workspaceId=${ws}`, {
      as: superAdmin(),
    });
    const deleted = await h.call('DELETE', `/api/contents/${theirs.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
    });

    expect(byId.status).toBe(404);
    expect(byId.body.code).toBe('CONTENT.NOT_FOUND');
    expect(byHeader.status).toBe(404);
    expect(conversation.status).toBe(404);
    expect(superAdminInWs.status).toBe(404);
    expect(deleted.status).toBe(404);
    expect((await page(both, ws, '&q=secret')).items).toEqual([]);
    expect((await page(both, ws)).items).toEqual([]);
    expect(ids((await page(both, other, '&q=secret')).items)).toEqual([theirs.id]);
  });

  it('when the caller names a workspace they do not belong to, then 404 WORKSPACE.NOT_FOUND', async () => {
    const ws = newWorkspaceId();
    const res = await h.call('GET', `/api/contents?workspaceId=${ws}`, {
      as: userOf(newWorkspaceId()),
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('WORKSPACE.NOT_FOUND');
  });

  it('when a content was generated without a workspace, then only its owner sees it, in the list without a workspace', async () => {
    const owner = `u-${randomUUID()}`;
    const mine = buildContent({ workspaceId: null, userId: owner });
    await h.store(mine);

    const list = await h.call('GET', '/api/contents', { as: { uid: owner, roles: {}, ws: null } });
    const other = await h.call('GET', `/api/contents/${mine.id}`, {
      as: { uid: 'someone', roles: {}, ws: null },
    });

    expect(ids(list.body.items)).toEqual([mine.id]);
    expect(other.status).toBe(404);
  });
});

describe('access matrix', () => {
  const routes = (id: string, ws: number) =>
    [
      ['GET', `/api/contents?workspaceId=${ws}`],
      ['GET', `/api/contents/${id}?workspaceId=${ws}`],
      ['GET', `/api/contents/${id}/conversation?workspaceId=${ws}`],
    ] as const;

  it('when signed out, then every content route answers 401', async () => {
    const ws = newWorkspaceId();
    const c = buildContent({ workspaceId: ws });
    await h.store(c);
    for (const [method, path] of [
      ...routes(c.id, ws),
      ['DELETE', `/api/contents/${c.id}`],
      ['GET', `/api/stats?workspaceId=${ws}`],
    ]) {
      expect([path, (await h.call(method, path, { as: null })).status]).toEqual([path, 401]);
      expect([path, (await h.call(method, path, { as: { uid: null, roles: {} } })).status]).toEqual(
        [path, 401],
      );
    }
  });

  it.each([
    ['a user of the workspace', (ws: number) => userOf(ws)],
    ['an admin of the workspace', (ws: number) => adminOf(ws)],
    ['a super admin', () => superAdmin()],
  ])('when %s reads, then list, content and conversation answer 200', async (_who, caller) => {
    const ws = newWorkspaceId();
    const c = buildContent({ workspaceId: ws });
    await h.store(c);
    for (const [method, path] of routes(c.id, ws))
      expect([path, (await h.call(method, path, { as: caller(ws) })).status]).toEqual([path, 200]);
  });

  it('when an admin of another workspace reads, then 404', async () => {
    const ws = newWorkspaceId();
    const c = buildContent({ workspaceId: ws });
    await h.store(c);
    const stranger = adminOf(newWorkspaceId());
    for (const [method, path] of routes(c.id, ws))
      expect([path, (await h.call(method, path, { as: stranger })).status]).toEqual([path, 404]);
  });

  it.each([
    ['its owner (a user)', (ws: number, owner: string) => userOf(ws, { uid: owner }), 204],
    ['an admin of its workspace', (ws: number) => adminOf(ws), 204],
    ['a super admin', () => superAdmin(), 204],
    ['another user of its workspace', (ws: number) => userOf(ws), 403],
    ['an admin of another workspace', () => adminOf(newWorkspaceId()), 404],
  ])(
    'when %s deletes a content, then %#: the expected status and, on success, content.deleted',
    async (_who, caller, status) => {
      const ws = newWorkspaceId();
      const owner = `u-${randomUUID()}`;
      const c = buildContent({ workspaceId: ws, userId: owner });
      await h.store(c);

      const res = await h.call('DELETE', `/api/contents/${c.id}?workspaceId=${ws}`, {
        as: caller(ws, owner),
      });

      expect(res.status).toBe(status);
      const after = await h.call('GET', `/api/contents/${c.id}?workspaceId=${ws}`, {
        as: adminOf(ws),
      });
      expect(after.status).toBe(status === 204 ? 404 : 200);
      if (status === 204) {
        await waitFor(() =>
          h.events.find(
            (e) =>
              e.type === 'content.deleted' && (e.data as { contentId: string }).contentId === c.id,
          ),
        );
        expect((await page(adminOf(ws), ws)).items).toEqual([]);
        // A late copy of the generation does not bring it back.
        expect(await h.store(c)).toEqual({ id: c.id, stored: false });
        expect((await page(adminOf(ws), ws)).items).toEqual([]);
      }
    },
  );
});
