import {
  checkAnswer,
  mountedApiRoutes,
  newWorkspaceId,
  startServiceHarness,
  tableRoutesOf,
  userOf,
  type ServiceHarness,
} from '@aict/service-kit/testing';
import { start } from '../main';

let h: ServiceHarness<Awaited<ReturnType<typeof start>>>;
beforeAll(async () => {
  h = await startServiceHarness({ name: 'content', start, listen: false });
}, 60_000);
afterAll(() => h?.stop(), 60_000);

describe('content service: the route table', () => {
  it('when the service has started, then it mounts exactly the routes the table gives it', () => {
    expect(mountedApiRoutes(h.service.app)).toEqual(tableRoutesOf('content'));
  });

  it('when a member lists the history, then the answer is what the table says', async () => {
    const workspaceId = newWorkspaceId();
    const url = `/api/contents?workspaceId=${workspaceId}&limit=5`;
    const answer = await h.call('GET', url, { as: userOf(workspaceId) });

    expect(answer.status).toBe(200);
    expect(checkAnswer('GET', url, answer)).toEqual({ items: [], nextCursor: null });
  });
});
