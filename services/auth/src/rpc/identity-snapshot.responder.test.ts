import jwt from 'jsonwebtoken';
import { IDENTITY_SNAPSHOT_RPC, IdentitySnapshot, type User } from '@aict/contracts';
import {
  as,
  registerUser,
  signedOut,
  startAuth,
  TEST_SUPER_ADMIN,
  waitFor,
  type AuthKit,
} from '../test-support/auth-test-kit';

jest.setTimeout(30_000);

let kit: AuthKit;

beforeAll(async () => {
  kit = await startAuth();
}, 60_000);
afterAll(() => kit?.stop());

const snapshot = () =>
  kit.workspaceBus.request(
    IDENTITY_SNAPSHOT_RPC,
    {},
    { schema: IdentitySnapshot, timeoutMs: 5000 },
  );

describe('auth.identity-snapshot', () => {
  it('when a gateway asks for the snapshot, then it gets every user with token version and flag, and the revoked sessions', async () => {
    const superAdmin = await kit.call<User>('POST', '/api/login', {
      ctx: signedOut(),
      body: { username: TEST_SUPER_ADMIN.username, password: TEST_SUPER_ADMIN.password },
    });
    const saCtx = as(superAdmin.body.id, { sa: true });
    const [reset, loggedOut, deleted] = await Promise.all([
      registerUser(kit),
      registerUser(kit),
      registerUser(kit),
    ]);
    await kit.call('POST', `/api/users/${reset.user.id}/reset-password`, {
      ctx: saCtx,
      body: { password: 'another password' },
    });
    await kit.call('POST', '/api/logout', { ctx: as(loggedOut.user.id), session: loggedOut.token });
    await kit.call('DELETE', `/api/users/${deleted.user.id}`, { ctx: saCtx });
    const { sid, exp } = jwt.decode(loggedOut.token) as { sid: string; exp: number };

    const answer = await snapshot();

    expect(answer.users).toEqual(
      expect.arrayContaining([
        { id: superAdmin.body.id, tokenVersion: 0, isSuperAdmin: true },
        { id: reset.user.id, tokenVersion: 1, isSuperAdmin: false },
        { id: loggedOut.user.id, tokenVersion: 0, isSuperAdmin: false },
      ]),
    );
    expect(answer.users.map((u) => u.id)).not.toContain(deleted.user.id);
    expect(answer.revokedSessions).toContainEqual({
      sessionId: sid,
      userId: loggedOut.user.id,
      expiresAt: new Date(exp * 1000).toISOString(),
    });
  });

  it('when a revoked session has expired, then the snapshot leaves it out', async () => {
    const revokedSessions = kit.service.deps.mongo!.collection('revoked_sessions');
    await revokedSessions.insertMany([
      { _id: 'expired-session' as never, userId: 'u1', expiresAt: new Date(Date.now() - 1000) },
      { _id: 'live-session' as never, userId: 'u1', expiresAt: new Date(Date.now() + 60_000) },
    ]);

    const answer = await waitFor(snapshot, 'the snapshot');

    const ids = answer.revokedSessions.map((s) => s.sessionId);
    expect(ids).toContain('live-session');
    expect(ids).not.toContain('expired-session');
  });
});
