import { randomBytes } from 'node:crypto';
import {
  adminOf,
  checkAnswer,
  mountedApiRoutes,
  startServiceHarness,
  superAdmin,
  tableRoutesOf,
  type ServiceHarness,
} from '@aict/service-kit/testing';
import { start } from '../main';

let h: ServiceHarness<Awaited<ReturnType<typeof start>>>;
beforeAll(async () => {
  h = await startServiceHarness({
    name: 'workspace',
    start,
    env: { SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
    listen: false,
  });
}, 60_000);
afterAll(() => h?.stop(), 60_000);

describe('workspace service: the route table', () => {
  it('when the service has started, then it mounts exactly the routes the table gives it', () => {
    expect(mountedApiRoutes(h.service.app)).toEqual(tableRoutesOf('workspace'));
  });

  it('when a super administrator creates, changes and lists workspaces, then every answer is what the table says', async () => {
    const sa = superAdmin();
    const created = await h.call('POST', '/api/workspaces', {
      as: sa,
      body: { name: `Route table ${randomBytes(3).toString('hex')}` },
    });
    const workspace = checkAnswer('POST', '/api/workspaces', created) as { id: number };
    const path = `/api/workspaces/${workspace.id}`;

    const calls = [
      ['PATCH', path, { as: sa, body: { description: 'checked' } }],
      ['GET', '/api/workspaces', { as: sa }],
      ['GET', '/api/models/text', { as: sa }],
      ['GET', '/api/settings/default_text_model', { as: sa }],
      ['GET', `${path}/settings/openai_api_key`, { as: adminOf(workspace.id) }],
      ['PUT', `${path}/settings/openai_api_key`, { as: sa, body: { value: 'sk-route-table' } }],
      ['DELETE', `${path}/settings/openai_api_key`, { as: sa }],
    ] as const;
    for (const [method, url, options] of calls) {
      const answer = await h.call(method, url, options);
      expect(() => checkAnswer(method, url, answer)).not.toThrow();
    }
  });
});
