import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { IdentityState } from '../identity/identity-state';
import { SESSION_KEYS, sessionToken } from '../testing/fixtures';
import { createEvent } from '@aict/contracts';
import { keyIdOf } from '@aict/service-kit';
import { readCookie, SessionVerifier } from './session';

describe('readCookie', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['aict_session=abc.def.ghi', 'abc.def.ghi'],
    ['theme=dark; aict_session=abc.def.ghi; other=1', 'abc.def.ghi'],
    ['theme=dark;aict_session="abc.def.ghi"', 'abc.def.ghi'],
    ['aict_session=first; aict_session=second', 'first'],
    ['not_aict_session=x; xaict_session=y', undefined],
    ['aict_session', undefined],
    ['aict_session=', ''],
  ])('when the Cookie header is %p, then the session cookie is %p', (header, expected) => {
    expect(readCookie(header, 'aict_session')).toBe(expected);
  });
});

describe('SessionVerifier', () => {
  function setUp() {
    const state = new IdentityState();
    state.load(
      { users: [{ id: 'u1', tokenVersion: 1, isSuperAdmin: true }], revokedSessions: [] },
      { memberships: [] },
    );
    return { state, verifier: new SessionVerifier(SESSION_KEYS.publicKey, state) };
  }

  it('when a valid token comes, then the session is known, with the user’s flag', () => {
    const { verifier } = setUp();
    const sid = randomUUID();

    expect(verifier.authenticate(sessionToken({ sub: 'u1', sid, tv: 1 }))).toEqual({
      uid: 'u1',
      sid,
      isSuperAdmin: true,
    });
  });

  it('when a cached token’s session is revoked, then the next check refuses it (the state is read on every request)', () => {
    const { state, verifier } = setUp();
    const sid = randomUUID();
    const token = sessionToken({ sub: 'u1', sid, tv: 1 });
    const verify = jest.spyOn(jwt, 'verify');
    expect(verifier.authenticate(token)).not.toBeNull();
    expect(verifier.authenticate(token)).not.toBeNull();
    expect(verify).toHaveBeenCalledTimes(1); // verified once, then from the cache
    verify.mockRestore();

    state.apply(
      createEvent(
        'session.revoked',
        { sessionId: sid, userId: 'u1', expiresAt: new Date(Date.now() + 60_000).toISOString() },
        { correlationId: 'c' },
      ),
    );

    expect(verifier.authenticate(token)).toBeNull();
  });

  it('when a cached token expires, then it is refused without asking the signature again', () => {
    const { verifier } = setUp();
    const token = sessionToken({ sub: 'u1', tv: 1 }, { expiresIn: 60 });
    const now = Date.now();
    expect(verifier.authenticate(token, now)).not.toBeNull();

    expect(verifier.authenticate(token, now + 61_000)).toBeNull();
  });

  it('when a token has no expiry, then it is refused', () => {
    const { verifier } = setUp();
    const token = jwt.sign({ sub: 'u1', sid: 's1', tv: 1 }, SESSION_KEYS.privateKey, {
      algorithm: 'ES256',
      issuer: 'aict-auth',
      audience: 'aict',
      keyid: keyIdOf(SESSION_KEYS.privateKey),
    });

    expect(verifier.authenticate(token)).toBeNull();
  });

  it('when the token is too long or its claims are not a session’s, then it is refused', () => {
    const { verifier } = setUp();
    const noSid = jwt.sign({ sub: 'u1', tv: 1 }, SESSION_KEYS.privateKey, {
      algorithm: 'ES256',
      issuer: 'aict-auth',
      audience: 'aict',
      expiresIn: 60,
      keyid: keyIdOf(SESSION_KEYS.privateKey),
    });

    expect(verifier.authenticate('x'.repeat(5000))).toBeNull();
    expect(verifier.authenticate(noSid)).toBeNull();
  });

  it('when a token carries the pinned header and times, then it is accepted (the crafting is sound)', () => {
    const { verifier } = setUp();

    expect(verifier.authenticate(sessionToken({ sub: 'u1', tv: 1 }))).not.toBeNull();
  });

  const now = Math.floor(Date.now() / 1000);
  it.each([
    ['an unknown typ', { header: { typ: 'at+jwt' } }],
    ['no typ', { header: { typ: undefined } }],
    ['an unknown kid', { header: { kid: 'another-key' } }],
    ['no kid', { header: { kid: undefined } }],
    ['a crit header', { header: { crit: ['tv'] } }],
    ['an iat in the future', { iat: now + 3600 }],
    ['no iat', { iat: null }],
  ])('when a token has %s, then it is refused', (_what, options) => {
    const { verifier } = setUp();
    const token = sessionToken({ sub: 'u1', tv: 1 }, options);

    expect(verifier.authenticate(token)).toBeNull();
  });
});
