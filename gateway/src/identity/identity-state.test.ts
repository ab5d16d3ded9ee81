import { createEvent, type EventData } from '@aict/contracts';
import { IdentityState, type IdentityEvent, type IdentityEventType } from './identity-state';

function event<T extends IdentityEventType>(
  type: T,
  data: EventData<T>,
  id?: string,
): IdentityEvent {
  return createEvent(type, data as never, { correlationId: 'test', id }) as IdentityEvent;
}

function loaded(overrides: Partial<Parameters<IdentityState['load']>[0]> = {}) {
  const state = new IdentityState();
  state.load(
    {
      users: [
        { id: 'u1', tokenVersion: 2, isSuperAdmin: false },
        { id: 'root', tokenVersion: 0, isSuperAdmin: true },
      ],
      revokedSessions: [
        {
          sessionId: 's-live',
          userId: 'u1',
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
        { sessionId: 's-old', userId: 'u1', expiresAt: new Date(Date.now() - 1).toISOString() },
      ],
      ...overrides,
    },
    {
      memberships: [
        { workspaceId: 1, userId: 'u1', role: 'user' },
        { workspaceId: 2, userId: 'u1', role: 'admin' },
      ],
    },
  );
  return state;
}

describe('IdentityState', () => {
  it('when snapshots are loaded, then users, roles and the sessions still revoked are known', () => {
    const state = loaded();

    expect(state.isLoaded).toBe(true);
    expect(state.user('u1')).toEqual({ tokenVersion: 2, isSuperAdmin: false });
    expect(state.user('root')).toEqual({ tokenVersion: 0, isSuperAdmin: true });
    expect(state.user('nobody')).toBeUndefined();
    expect(state.rolesOf('u1').roles).toEqual({ '1': 'user', '2': 'admin' });
    expect(state.rolesOf('root')).toEqual({ roles: {}, version: 0 });
    expect(state.isRevoked('s-live')).toBe(true);
    expect(state.isRevoked('s-old')).toBe(false);
  });

  it('when a membership changes, then the roles are replaced (not mutated) and their version changes', () => {
    const state = loaded();
    const before = state.rolesOf('u1');

    state.apply(event('membership.changed', { workspaceId: 1, userId: 'u1', role: 'admin' }));
    state.apply(event('membership.changed', { workspaceId: 3, userId: 'u1', role: 'user' }));
    state.apply(event('membership.changed', { workspaceId: 2, userId: 'u1', role: null }));

    expect(before.roles).toEqual({ '1': 'user', '2': 'admin' });
    expect(state.rolesOf('u1').roles).toEqual({ '1': 'admin', '3': 'user' });
    expect(state.rolesOf('u1').version).not.toBe(before.version);
  });

  it('when a membership event changes nothing, then the version stays', () => {
    const state = loaded();
    const before = state.rolesOf('u1').version;

    state.apply(event('membership.changed', { workspaceId: 1, userId: 'u1', role: 'user' }));
    state.apply(event('membership.changed', { workspaceId: 9, userId: 'u1', role: null }));

    expect(state.rolesOf('u1').version).toBe(before);
  });

  it('when a workspace is deleted, then nobody has a role in it any more', () => {
    const state = loaded();
    state.apply(event('membership.changed', { workspaceId: 2, userId: 'u2', role: 'user' }));

    state.apply(event('workspace.deleted', { workspaceId: 2 }));

    expect(state.rolesOf('u1').roles).toEqual({ '1': 'user' });
    expect(state.rolesOf('u2')).toEqual({ roles: {}, version: 0 });
  });

  it('when token versions arrive out of order, then the highest one holds', () => {
    const state = loaded();

    state.apply(event('user.sessions-revoked', { userId: 'u1', tokenVersion: 5 }));
    state.apply(event('user.sessions-revoked', { userId: 'u1', tokenVersion: 4 }));

    expect(state.user('u1')?.tokenVersion).toBe(5);
  });

  it('when a user is created or updated, then the flag follows and the token version is kept', () => {
    const state = loaded();

    state.apply(
      event('user.created', { userId: 'new', username: 'n', email: 'n@x.io', isSuperAdmin: false }),
    );
    state.apply(
      event('user.updated', { userId: 'u1', username: 'u', email: 'u@x.io', isSuperAdmin: true }),
    );
    state.apply(
      event('user.updated', {
        userId: 'ghost',
        username: 'g',
        email: 'g@x.io',
        isSuperAdmin: true,
      }),
    );

    expect(state.user('new')).toEqual({ tokenVersion: 0, isSuperAdmin: false });
    expect(state.user('u1')).toEqual({ tokenVersion: 2, isSuperAdmin: true });
    expect(state.user('ghost')).toBeUndefined(); // an update never creates a user of unknown version
  });

  it('when a user is deleted, then they and their roles go, and a late update does not bring them back', () => {
    const state = loaded();

    state.apply(event('user.deleted', { userId: 'u1' }));
    state.apply(
      event('user.updated', { userId: 'u1', username: 'u', email: 'u@x.io', isSuperAdmin: true }),
    );
    state.apply(event('user.sessions-revoked', { userId: 'u1', tokenVersion: 9 }));
    state.apply(
      event('user.created', { userId: 'u1', username: 'u', email: 'u@x.io', isSuperAdmin: true }),
    );

    expect(state.user('u1')).toBeUndefined();
    expect(state.rolesOf('u1').roles).toEqual({});
  });

  it('when the same event arrives twice (answer header, then RabbitMQ), then it is applied once', () => {
    const state = loaded();
    const promote = event(
      'membership.changed',
      { workspaceId: 1, userId: 'u1', role: 'admin' },
      '00000000-0000-4000-8000-000000000001',
    );
    const demote = event('membership.changed', { workspaceId: 1, userId: 'u1', role: 'user' });

    expect(state.apply(promote)).toBe(true);
    state.apply(demote);
    expect(state.apply(promote)).toBe(false);

    expect(state.rolesOf('u1').roles['1']).toBe('user');
  });

  it('when a session is revoked, then it stays refused until its expiry and is forgotten after', () => {
    const state = loaded();
    const now = Date.now();
    state.apply(
      event('session.revoked', {
        sessionId: 's1',
        userId: 'u1',
        expiresAt: new Date(now + 1000).toISOString(),
      }),
      now,
    );
    state.apply(
      event('session.revoked', {
        sessionId: 's2',
        userId: 'u1',
        expiresAt: new Date(now - 1000).toISOString(),
      }),
      now,
    );

    expect(state.isRevoked('s1')).toBe(true);
    expect(state.isRevoked('s2')).toBe(false); // already expired: its token is refused anyway
    expect(state.prune(now + 500)).toBe(0);
    expect(state.prune(now + 61_000)).toBe(2); // s1 and the snapshot's s-live
    expect(state.isRevoked('s1')).toBe(false);
  });

  it('when an API token is revoked, then it stays refused across a snapshot reload until its expiry', () => {
    const state = loaded();
    const now = Date.now();
    const expiresAt = new Date(now + 1000).toISOString();
    state.apply(event('api-token.revoked', { tokenId: 't1', userId: 'u1', expiresAt }), now);

    state.load(
      { users: [{ id: 'u1', tokenVersion: 2, isSuperAdmin: false }], revokedSessions: [] },
      { memberships: [] },
    );

    expect(state.isApiTokenRevoked('t1')).toBe(true);
    expect(state.isApiTokenRevoked('t2')).toBe(false);
    state.prune(now + 1500);
    expect(state.isApiTokenRevoked('t1')).toBe(false);
  });

  it('when snapshots are loaded again, then they replace everything and old role versions never come back', () => {
    const state = loaded();
    const old = state.rolesOf('u1').version;
    state.apply(event('membership.changed', { workspaceId: 7, userId: 'u1', role: 'admin' }));

    state.load(
      { users: [{ id: 'u1', tokenVersion: 3, isSuperAdmin: false }], revokedSessions: [] },
      { memberships: [{ workspaceId: 1, userId: 'u1', role: 'user' }] },
    );

    expect(state.user('root')).toBeUndefined();
    expect(state.user('u1')?.tokenVersion).toBe(3);
    expect(state.rolesOf('u1').roles).toEqual({ '1': 'user' });
    expect(state.rolesOf('u1').version).toBeGreaterThan(old);
    expect(state.isRevoked('s-live')).toBe(false);
  });
});
