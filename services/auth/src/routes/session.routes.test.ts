import { createPublicKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { User } from '@aict/contracts';
import { keyIdOf } from '@aict/service-kit';
import {
  as,
  buildRegistration,
  freshIp,
  identityEventsOf,
  registerUser,
  sessionOf,
  signedOut,
  startAuth,
  TEST_JWT_PRIVATE_PEM,
  waitFor,
  type AuthKit,
} from '../test-support/auth-test-kit';

jest.setTimeout(30_000);

let kit: AuthKit;

beforeAll(async () => {
  kit = await startAuth();
}, 60_000);
afterAll(() => kit?.stop());

const jwtPublicKey = createPublicKey(TEST_JWT_PRIVATE_PEM);

describe('register, login, user, logout', () => {
  it('when someone registers, then it answers 201 with the user and sets the session cookie', async () => {
    const registration = buildRegistration();

    const answer = await kit.call<User>('POST', '/api/register', {
      ctx: signedOut(),
      body: registration,
    });

    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(String),
      username: registration.username,
      email: registration.email,
      isSuperAdmin: false,
      workspaceRoles: {},
    });
    const cookie = answer.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^aict_session=[^;]+;/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Expires=/);
    expect(cookie).not.toMatch(/; Secure/); // NODE_ENV=test
  });

  it('when a user signs in, then it answers 200 with the user and a fresh session cookie', async () => {
    const { user, password } = await registerUser(kit);

    const answer = await kit.call<User>('POST', '/api/login', {
      ctx: signedOut(),
      body: { username: user.username, password },
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(user);
    expect(sessionOf(answer)).toEqual(expect.any(String));
  });

  it('when a signed-in user asks for /api/user, then it answers the user; signed out, then 401', async () => {
    const { user } = await registerUser(kit);

    const signedIn = await kit.call<User>('GET', '/api/user', { ctx: as(user.id) });
    const anonymous = await kit.call('GET', '/api/user', { ctx: signedOut() });

    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual(user);
    expect(signedIn.body).not.toHaveProperty('passwordHash');
    expect(signedIn.body).not.toHaveProperty('tokenVersion');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'AUTH.UNAUTHENTICATED' });
  });

  it('when a user logs out, then 204, the cookie is cleared and session.revoked is published and put in the header', async () => {
    const { user, token } = await registerUser(kit);
    const { sid, exp } = jwt.decode(token) as { sid: string; exp: number };

    const answer = await kit.call('POST', '/api/logout', { ctx: as(user.id), session: token });

    expect(answer.status).toBe(204);
    expect(answer.headers.getSetCookie()[0]).toMatch(
      /^aict_session=;.*Expires=Thu, 01 Jan 1970 00:00:00 GMT/,
    );
    const expected = {
      type: 'session.revoked',
      data: { sessionId: sid, userId: user.id, expiresAt: new Date(exp * 1000).toISOString() },
    };
    expect(identityEventsOf(answer)).toEqual([expect.objectContaining(expected)]);
    const published = await kit.authEvents.find(
      (e) => e.type === 'session.revoked' && (e.data as { sessionId: string }).sessionId === sid,
    );
    expect(published).toEqual(identityEventsOf(answer)[0]);
  });
});

describe('the session token', () => {
  it('when a token is issued, then it is ES256 with iss, aud, exp, sub, sid and tv', async () => {
    const { user, token } = await registerUser(kit);

    const { header, payload } = jwt.decode(token, { complete: true }) as jwt.Jwt & {
      payload: jwt.JwtPayload;
    };
    const verified = jwt.verify(token, jwtPublicKey, {
      algorithms: ['ES256'],
      issuer: 'aict-auth',
      audience: 'aict',
    }) as jwt.JwtPayload;

    expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: keyIdOf(jwtPublicKey) });
    expect(verified).toEqual(payload);
    expect(payload).toEqual({
      sub: user.id,
      sid: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      tv: 0,
      iss: 'aict-auth',
      aud: 'aict',
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(payload.exp! - payload.iat!).toBe(43_200);
  });
});

describe('unique usernames and e-mails', () => {
  it('when a username is taken (in any case), then registering it again is 409 USER.USERNAME_TAKEN', async () => {
    const { user } = await registerUser(kit);

    const answer = await kit.call('POST', '/api/register', {
      ctx: signedOut(),
      body: buildRegistration({ username: user.username.toUpperCase() }),
    });

    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      code: 'USER.USERNAME_TAKEN',
      message: 'Username already exists',
    });
  });

  it('when an e-mail is taken in another case, then registering it is 409 USER.EMAIL_TAKEN', async () => {
    const { user } = await registerUser(kit);

    const answer = await kit.call('POST', '/api/register', {
      ctx: signedOut(),
      body: buildRegistration({ email: user.email.toUpperCase() }),
    });

    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ code: 'USER.EMAIL_TAKEN', message: 'Email already exists' });
  });

  it('when a registration fails on the e-mail, then its username stays free', async () => {
    const { user } = await registerUser(kit);
    const attempt = buildRegistration({ email: user.email });

    const refused = await kit.call('POST', '/api/register', { ctx: signedOut(), body: attempt });
    const retried = await kit.call('POST', '/api/register', {
      ctx: signedOut(),
      body: { ...attempt, email: buildRegistration().email },
    });

    expect(refused.status).toBe(409);
    expect(retried.status).toBe(201);
  });

  it('when 10 registrations of the same name race, then exactly one is 201 and the others 409', async () => {
    const username = buildRegistration().username;

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        kit.call('POST', '/api/register', {
          ctx: signedOut(),
          body: buildRegistration({ username: i % 2 ? username : username.toUpperCase() }),
        }),
      ),
    );

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
  });

  it('when 10 registrations of the same e-mail race, then exactly one is 201', async () => {
    const email = buildRegistration().email;

    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        kit.call('POST', '/api/register', { ctx: signedOut(), body: buildRegistration({ email }) }),
      ),
    );

    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
  });
});

describe('sign-in failures', () => {
  it('when the password is wrong or the user unknown, then both get the same 401 answer', async () => {
    const { user } = await registerUser(kit);

    const wrongPassword = await kit.call('POST', '/api/login', {
      ctx: signedOut(),
      body: { username: user.username, password: 'not the password' },
    });
    const unknownUser = await kit.call('POST', '/api/login', {
      ctx: signedOut(),
      body: { username: `nobody_${user.username}`, password: 'not the password' },
    });

    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownUser.body);
    expect(wrongPassword.body).toEqual({
      code: 'AUTH.INVALID_CREDENTIALS',
      message: 'Invalid username or password',
    });
    expect(wrongPassword.headers.getSetCookie()).toEqual([]);
  });

  it('when login or register fields are missing, then 400 with the SPEC texts', async () => {
    const login = await kit.call('POST', '/api/login', { ctx: signedOut(), body: {} });
    const shortPassword = await kit.call('POST', '/api/register', {
      ctx: signedOut(),
      body: buildRegistration({ password: '12345' }),
    });
    const badEmail = await kit.call('POST', '/api/register', {
      ctx: signedOut(),
      body: buildRegistration({ email: 'not-an-email' }),
    });

    expect(login).toMatchObject({ status: 400, body: { message: 'Username is required' } });
    expect(shortPassword).toMatchObject({
      status: 400,
      body: { message: 'Password must be at least 6 characters' },
    });
    expect(badEmail).toMatchObject({
      status: 400,
      body: { message: 'Please enter a valid email' },
    });
  });
});

describe('logout', () => {
  it('when the same session logs out twice, then the second is 204 without events', async () => {
    const { user, token } = await registerUser(kit);
    await kit.call('POST', '/api/logout', { ctx: as(user.id), session: token });

    const again = await kit.call('POST', '/api/logout', { ctx: as(user.id), session: token });

    expect(again.status).toBe(204);
    expect(again.headers.get('x-aict-identity-events')).toBeNull();
  });

  it('when the cookie holds a forged token, then 204, the cookie is cleared and nothing is revoked', async () => {
    const { user, token } = await registerUser(kit);
    const [head, , signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: user.id, sid: 'forged' })).toString(
      'base64url',
    );

    const answer = await kit.call('POST', '/api/logout', {
      ctx: signedOut(),
      session: `${head}.${forgedPayload}.${signature}`,
    });

    expect(answer.status).toBe(204);
    expect(answer.headers.getSetCookie()[0]).toMatch(/^aict_session=;/);
    expect(answer.headers.get('x-aict-identity-events')).toBeNull();
  });
});

describe('rate limits', () => {
  let limited: AuthKit;

  beforeAll(async () => {
    limited = await startAuth({ RATE_LIMIT_MAX_PER_IP: '4', RATE_LIMIT_MAX_PER_USERNAME: '3' });
  }, 60_000);
  afterAll(() => limited?.stop());

  const wrongLogin = (service: AuthKit, username: string, ctx: string) =>
    service.call('POST', '/api/login', { ctx, body: { username, password: 'wrong password' } });

  it('when one client fails too often for a username, then that client gets 429 RATE_LIMITED with Retry-After', async () => {
    const { user } = await registerUser(limited);
    const attacker = signedOut();

    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await wrongLogin(limited, user.username, attacker)).status);
    const blocked = await wrongLogin(limited, user.username, attacker);

    expect(statuses).toEqual([401, 401, 401]);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'RATE_LIMITED' });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
  });

  it('when an attacker is throttled on a username, then its owner still signs in from their own client', async () => {
    const { user, password } = await registerUser(limited);
    const attacker = signedOut();
    for (let i = 0; i < 3; i++) await wrongLogin(limited, user.username, attacker);
    expect((await wrongLogin(limited, user.username, attacker)).status).toBe(429);

    const owner = await limited.call('POST', '/api/login', {
      ctx: signedOut(),
      body: { username: user.username, password },
    });

    expect(owner.status).toBe(200);
  });

  it('when one client tries many usernames, then it is throttled as a client', async () => {
    const attacker = signedOut();

    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await wrongLogin(limited, `nobody-${i}-${freshIp()}`, attacker)).status);

    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it('when failures for one username and client arrive at once, then none escapes the count', async () => {
    const { user } = await registerUser(limited);
    const attacker = signedOut();

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => wrongLogin(limited, user.username, attacker)),
    );

    expect(answers.filter((a) => a.status === 401)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
  });

  it('when two auth instances share the database, then they share the counters', async () => {
    const replica = await startAuth(
      {
        RATE_LIMIT_MAX_PER_IP: '4',
        RATE_LIMIT_MAX_PER_USERNAME: '3',
        MONGO_URL: limited.env.MONGO_URL,
        SUPERADMIN_USERNAME: undefined,
        SUPERADMIN_EMAIL: undefined,
        SUPERADMIN_PASSWORD: undefined,
      },
      limited.vhost,
    );
    try {
      const { user } = await registerUser(limited);
      const attacker = signedOut();
      await wrongLogin(limited, user.username, attacker);
      await wrongLogin(replica, user.username, attacker);
      await wrongLogin(limited, user.username, attacker);

      const fourth = await wrongLogin(replica, user.username, attacker);

      expect(fourth.status).toBe(429);
    } finally {
      await replica.stop({ keepData: true });
    }
  });

  it('when one address registers too often, then 429 with Retry-After', async () => {
    const ctx = signedOut();
    const register = () =>
      limited.call('POST', '/api/register', { ctx, body: buildRegistration() });

    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await register()).status);
    const blocked = await register();

    expect(statuses).toEqual([201, 201, 201, 201]);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('when a user signs in successfully again and again, then the successes do not use up the limit', async () => {
    const { user, password } = await registerUser(limited);
    const ctx = signedOut();

    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await limited.call('POST', '/api/login', {
            ctx,
            body: { username: user.username, password },
          })
        ).status,
      );

    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('left-overs of a crash', () => {
  const claims = () => kit.service.deps.mongo!.collection('username_claims');

  it('when a username claim was left behind by a failed registration, then it is taken over once stale', async () => {
    const stale = buildRegistration();
    const young = buildRegistration();
    await claims().insertMany([
      {
        _id: stale.username as never,
        userId: 'gone-user',
        claimedAt: new Date(Date.now() - 120_000),
      },
      { _id: young.username as never, userId: 'registering-user', claimedAt: new Date() },
    ]);

    const takenOver = await kit.call('POST', '/api/register', { ctx: signedOut(), body: stale });
    const inProgress = await kit.call('POST', '/api/register', { ctx: signedOut(), body: young });

    expect(takenOver.status).toBe(201);
    expect(inProgress.status).toBe(409);
  });

  it('when a change was written but its events not published, then the outbox sweep publishes them', async () => {
    const { user } = await registerUser(kit);
    const pending = kit.service.deps.bus!.envelope(
      'user.sessions-revoked',
      { userId: user.id, tokenVersion: 7 },
      { occurredAt: new Date(Date.now() - 10_000) }, // old enough for the next sweep
    );
    const users = kit.service.deps.mongo!.collection('users');
    // Once the registration's own flush is over (no writer of this document any more):
    await waitFor(async () => {
      const doc = await users.findOne({ _id: user.id as never });
      return doc?._outbox?.length === 0;
    }, 'the registration events to be published');
    await users.updateOne({ _id: user.id as never }, { $push: { _outbox: pending as never } });

    const published = await kit.authEvents.find((e) => e.id === pending.id);

    expect(published).toEqual(pending);
  });
});
