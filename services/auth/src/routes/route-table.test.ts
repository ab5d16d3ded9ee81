import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  checkAnswer,
  mountedApiRoutes,
  startServiceHarness,
  tableRoutesOf,
  type ServiceHarness,
} from '@aict/service-kit/testing';
import { start } from '../main';

const JWT_PRIVATE_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

let h: ServiceHarness<Awaited<ReturnType<typeof start>>>;
beforeAll(async () => {
  h = await startServiceHarness({ name: 'auth', start, env: { JWT_PRIVATE_KEY }, listen: false });
}, 60_000);
afterAll(() => h?.stop(), 60_000);

describe('auth service: the route table', () => {
  it('when the service has started, then it mounts exactly the routes the table gives it', () => {
    expect(mountedApiRoutes(h.service.app)).toEqual(tableRoutesOf('auth'));
  });

  it('when a user registers, reads and changes itself, then every answer is what the table says', async () => {
    const username = `rt${randomBytes(4).toString('hex')}`;
    const body = { username, email: `${username}@example.com`, password: 'secret-pass' };
    const registered = await h.call('POST', '/api/register', { as: { uid: null }, body });
    const user = checkAnswer('POST', '/api/register', registered) as { id: string };

    const me = await h.call('GET', '/api/user', { as: { uid: user.id } });
    const changed = await h.call('PATCH', '/api/user', {
      as: { uid: user.id },
      body: { language: 'nl' },
    });

    expect(checkAnswer('GET', '/api/user', me)).toMatchObject({ id: user.id, username });
    expect(checkAnswer('PATCH', '/api/user', changed)).toMatchObject({ id: user.id });
  });

  it('when a super administrator lists the users, then the answer is what the table says', async () => {
    const users = await h.call('GET', '/api/users', { as: { uid: 'sa', sa: true } });

    expect(users.status).toBe(200);
    expect(checkAnswer('GET', '/api/users', users)).toEqual(expect.any(Array));
  });
});
