import type { User } from '@aict/contracts';
import {
  as,
  registerUser,
  signedOut,
  startAuth,
  type AuthKit,
} from '../test-support/auth-test-kit';

// PATCH /api/user: a signed-in user saves their UI language (English or Dutch) on
// themselves; GET /api/user and the next sign-in give it back.

jest.setTimeout(30_000);

let kit: AuthKit;

beforeAll(async () => {
  kit = await startAuth();
}, 60_000);
afterAll(() => kit?.stop());

describe('PATCH /api/user (own language)', () => {
  it('when a signed-in user saves Dutch, then it answers the user with the language and GET /api/user keeps it', async () => {
    const { user } = await registerUser(kit);

    const saved = await kit.call<User>('PATCH', '/api/user', {
      ctx: as(user.id),
      body: { language: 'nl' },
    });
    const after = await kit.call<User>('GET', '/api/user', { ctx: as(user.id) });

    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...user, language: 'nl' });
    expect(after.body).toEqual({ ...user, language: 'nl' });
  });

  it('when the user has not picked a language, then the user has none (the browser decides)', async () => {
    const { user } = await registerUser(kit);
    const answer = await kit.call<User>('GET', '/api/user', { ctx: as(user.id) });
    expect(answer.body).not.toHaveProperty('language');
  });

  it('when the language is missing or unknown, then it answers 400 with a plain message and saves nothing', async () => {
    const { user } = await registerUser(kit);

    const unknown = await kit.call('PATCH', '/api/user', {
      ctx: as(user.id),
      body: { language: 'fr' },
    });
    const missing = await kit.call('PATCH', '/api/user', { ctx: as(user.id), body: {} });
    const after = await kit.call<User>('GET', '/api/user', { ctx: as(user.id) });

    for (const answer of [unknown, missing]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'VALIDATION.FAILED',
        message: 'Choose English (en) or Dutch (nl).',
      });
    }
    expect(after.body).not.toHaveProperty('language');
  });

  it('when nobody is signed in, then it answers 401', async () => {
    const answer = await kit.call('PATCH', '/api/user', {
      ctx: signedOut(),
      body: { language: 'nl' },
    });
    expect(answer.status).toBe(401);
  });
});
