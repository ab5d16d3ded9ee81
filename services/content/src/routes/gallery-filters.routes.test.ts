import { ContentsPage } from '@aict/contracts';
import {
  adminOf,
  buildImage,
  newWorkspaceId,
  startHarness,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(90_000);

// The gallery (issue 18) filters the workspace's images by model, author, prompt and time on
// the server, across history pages (small pages here: every filter spans several of them).

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ HISTORY_PAGE_SIZE: '3' });
});
afterAll(() => h.stop());

async function allPages(ws: number, as: Caller, filters: string) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await h.call(
      'GET',
      `/api/contents?workspaceId=${ws}&type=image&limit=2${filters}${after}`,
      { as },
    );
    expect(res.status).toBe(200);
    const page = ContentsPage.parse(res.body);
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('the pages never ended');
}

describe('gallery filters', () => {
  it('when images are filtered by model, author, prompt and time, then exactly the matching ones are listed, newest first, across pages', async () => {
    const ws = newWorkspaceId();
    const alice = userOf(ws);
    const bob = userOf(ws);
    const made: Array<{ id: string; by: string; model: string; promptId: string; at: string }> = [];
    for (let i = 0; i < 10; i++) {
      const image = buildImage({
        workspaceId: ws,
        userId: (i % 2 ? alice : bob)!.uid!,
        model: i % 3 ? 'dall-e-3' : 'gpt-image-1',
        promptId: i < 5 ? 'prompt-a' : 'prompt-b',
      });
      await h.store(image);
      made.push({
        id: image.id,
        by: image.userId,
        model: image.model,
        promptId: image.promptId!,
        at: image.createdAt,
      });
    }
    const newestFirst = [...made].reverse();
    const admin = adminOf(ws);

    expect(await allPages(ws, admin, '&model=gpt-image-1')).toEqual(
      newestFirst.filter((m) => m.model === 'gpt-image-1').map((m) => m.id),
    );
    expect(await allPages(ws, admin, `&userId=${alice!.uid}`)).toEqual(
      newestFirst.filter((m) => m.by === alice!.uid).map((m) => m.id),
    );
    expect(await allPages(ws, admin, `&promptId=prompt-b&model=dall-e-3`)).toEqual(
      newestFirst
        .filter((m) => m.promptId === 'prompt-b' && m.model === 'dall-e-3')
        .map((m) => m.id),
    );
    const from = made[3]!.at;
    const to = made[7]!.at;
    expect(
      await allPages(ws, admin, `&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`),
    ).toEqual(newestFirst.filter((m) => m.at >= from && m.at < to).map((m) => m.id));
    expect(await allPages(ws, admin, '&model=dall-e-2')).toEqual([]);
  });

  it('when a filter is malformed, then 400 names it', async () => {
    const ws = newWorkspaceId();
    const res = await h.call('GET', `/api/contents?workspaceId=${ws}&from=yesterday&model=a%20b`, {
      as: adminOf(ws),
    });

    expect(res.status).toBe(400);
    const paths = (res.body as { details: Array<{ path: string }> }).details.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['from', 'model']));
  });
});
