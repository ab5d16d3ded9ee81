import {
  adminOf,
  checkAnswer,
  mountedApiRoutes,
  newWorkspaceId,
  startServiceHarness,
  tableRoutesOf,
  type ServiceHarness,
} from '@aict/service-kit/testing';
import { start } from '../main';

let h: ServiceHarness<Awaited<ReturnType<typeof start>>>;
beforeAll(async () => {
  h = await startServiceHarness({ name: 'prompt', start, listen: false });
}, 60_000);
afterAll(() => h?.stop(), 60_000);

describe('prompt service: the route table', () => {
  it('when the service has started, then it mounts exactly the routes the table gives it', () => {
    expect(mountedApiRoutes(h.service.app)).toEqual(tableRoutesOf('prompt'));
  });

  it('when an admin creates, reads, lists, changes and deletes a prompt, then every answer is what the table says', async () => {
    const workspaceId = newWorkspaceId();
    const as = adminOf(workspaceId);
    const created = await h.call('POST', '/api/prompts', {
      as,
      body: {
        name: 'Route table',
        template: 'Write about {{subject}}',
        category: 'Marketing',
        contentType: 'text',
        model: 'gpt-4o',
        workspaceId,
      },
    });
    const prompt = checkAnswer('POST', '/api/prompts', created) as { id: string };
    const path = `/api/prompts/${prompt.id}`;

    const calls = [
      ['GET', `${path}?workspaceId=${workspaceId}`, { as }],
      ['GET', `/api/prompts?workspaceId=${workspaceId}`, { as }],
      ['PUT', path, { as, body: { description: 'checked', workspaceId } }],
      ['DELETE', path, { as }],
    ] as const;
    for (const [method, url, options] of calls) {
      const answer = await h.call(method, url, options);
      expect(() => checkAnswer(method, url, answer)).not.toThrow();
    }
  });
});
