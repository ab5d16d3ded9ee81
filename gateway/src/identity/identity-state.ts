import type { EventOf, IdentitySnapshot, MembershipsSnapshot, Role } from '@aict/contracts';

/** The events that change who may do what (docs/adr/0001-identity-and-tenancy.md). */
export const AUTH_IDENTITY_EVENTS = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.sessions-revoked',
  'session.revoked',
  'api-token.revoked',
] as const;
export const WORKSPACE_IDENTITY_EVENTS = ['membership.changed', 'workspace.deleted'] as const;
export const IDENTITY_EVENT_TYPES: ReadonlySet<string> = new Set([
  ...AUTH_IDENTITY_EVENTS,
  ...WORKSPACE_IDENTITY_EVENTS,
]);

export type IdentityEventType =
  (typeof AUTH_IDENTITY_EVENTS)[number] | (typeof WORKSPACE_IDENTITY_EVENTS)[number];
export type IdentityEvent = { [T in IdentityEventType]: EventOf<T> }[IdentityEventType];

export interface UserIdentity {
  /** Tokens whose `tv` is lower are refused. */
  readonly tokenVersion: number;
  readonly isSuperAdmin: boolean;
}

/** A user's roles, replaced (never mutated) on change, with a version that changes with them. */
export interface Roles {
  /** Workspace id (as a string) → role: the shape of the context's `roles`. */
  readonly roles: Readonly<Record<string, Role>>;
  /** Differs after every change of these roles (signed contexts are cached by it). */
  readonly version: number;
}

const NO_ROLES: Roles = Object.freeze({ roles: Object.freeze({}), version: 0 });

/** How many applied event ids are remembered, to apply an event seen twice only once. */
const REMEMBERED_EVENTS = 10_000;

/**
 * What the gateway knows about identity, in memory: users `{tokenVersion, isSuperAdmin}`,
 * memberships `userId → {workspaceId → role}`, revoked sessions `sid → exp`. Loaded from the
 * snapshots of the auth and workspace services, then kept current by their events (from
 * RabbitMQ and from the `x-aict-identity-events` header of their answers, so the same event
 * often arrives twice: it is applied once).
 *
 * Every event is safe to apply again or late: token versions only grow, a revoked session
 * stays revoked, a deleted user stays deleted (an update that arrives after the deletion
 * does not bring the user back).
 */
export class IdentityState {
  private users = new Map<string, UserIdentity>();
  private memberships = new Map<string, Roles>();
  private revoked = new Map<string, number>();
  /** Revoked personal API tokens: id → expiry (kept across snapshot loads; see apply). */
  private readonly revokedApiTokens = new Map<string, number>();
  private readonly deleted = new Set<string>();
  private applied = new Set<string>();
  private seq = 0;
  private loaded = false;

  /** True once snapshots were loaded (before that every signed-in user is unknown). */
  get isLoaded(): boolean {
    return this.loaded;
  }

  /** Replaces everything with the services' snapshots (then replay what arrived meanwhile). */
  load(identity: IdentitySnapshot, memberships: MembershipsSnapshot, now = Date.now()): void {
    const users = new Map<string, UserIdentity>();
    for (const u of identity.users) {
      users.set(u.id, { tokenVersion: u.tokenVersion, isSuperAdmin: u.isSuperAdmin });
      this.deleted.delete(u.id);
    }
    const revoked = new Map<string, number>();
    for (const s of identity.revokedSessions) {
      const exp = Date.parse(s.expiresAt);
      if (exp > now) revoked.set(s.sessionId, exp);
    }
    const grouped = new Map<string, Record<string, Role>>();
    for (const m of memberships.memberships) {
      let roles = grouped.get(m.userId);
      if (!roles) grouped.set(m.userId, (roles = {}));
      roles[String(m.workspaceId)] = m.role;
    }
    const byUser = new Map<string, Roles>();
    for (const [userId, roles] of grouped) {
      byUser.set(userId, Object.freeze({ roles: Object.freeze(roles), version: ++this.seq }));
    }
    this.users = users;
    this.revoked = revoked;
    this.memberships = byUser;
    this.applied = new Set();
    this.loaded = true;
  }

  /** Applies one event; false when it was applied before (same event id). */
  apply(event: IdentityEvent, now = Date.now()): boolean {
    if (this.applied.has(event.id)) return false;
    this.remember(event.id);
    switch (event.type) {
      case 'user.created':
      case 'user.updated': {
        const { userId, isSuperAdmin } = event.data;
        if (this.deleted.has(userId)) break;
        const known = this.users.get(userId);
        // A user we do not know yet is new (created): no token of theirs was ever revoked.
        if (known || event.type === 'user.created') {
          this.users.set(userId, { tokenVersion: known?.tokenVersion ?? 0, isSuperAdmin });
        }
        break;
      }
      case 'user.sessions-revoked': {
        const { userId, tokenVersion } = event.data;
        if (this.deleted.has(userId)) break;
        const known = this.users.get(userId);
        this.users.set(userId, {
          tokenVersion: Math.max(known?.tokenVersion ?? 0, tokenVersion),
          isSuperAdmin: known?.isSuperAdmin ?? false,
        });
        break;
      }
      case 'user.deleted': {
        const { userId } = event.data;
        this.users.delete(userId);
        this.memberships.delete(userId);
        this.deleted.add(userId);
        break;
      }
      case 'session.revoked': {
        const exp = Date.parse(event.data.expiresAt);
        if (exp > now) this.revoked.set(event.data.sessionId, exp);
        break;
      }
      case 'api-token.revoked': {
        const exp = Date.parse(event.data.expiresAt);
        if (exp > now) this.revokedApiTokens.set(event.data.tokenId, exp);
        break;
      }
      case 'membership.changed': {
        const { userId, workspaceId, role } = event.data;
        const current = this.memberships.get(userId)?.roles ?? {};
        const key = String(workspaceId);
        if ((current[key] ?? null) === role) break;
        const roles: Record<string, Role> = { ...current };
        if (role === null) delete roles[key];
        else roles[key] = role;
        this.setRoles(userId, roles);
        break;
      }
      case 'workspace.deleted': {
        const key = String(event.data.workspaceId);
        for (const [userId, { roles }] of this.memberships) {
          if (!(key in roles)) continue;
          const rest: Record<string, Role> = { ...roles };
          delete rest[key];
          this.setRoles(userId, rest);
        }
        break;
      }
    }
    return true;
  }

  user(userId: string): UserIdentity | undefined {
    return this.users.get(userId);
  }

  /** The user's roles (an empty set, version 0, when they belong to no workspace). */
  rolesOf(userId: string): Roles {
    return this.memberships.get(userId) ?? NO_ROLES;
  }

  /** A revoked session stays refused until its token expires (then the token is refused anyway). */
  isRevoked(sessionId: string): boolean {
    return this.revoked.has(sessionId);
  }

  /**
   * A revoked API token stays refused until it expires. The snapshot does not list them: a
   * gateway that starts after a revocation asks the auth service, which answers "revoked".
   */
  isApiTokenRevoked(tokenId: string): boolean {
    return this.revokedApiTokens.has(tokenId);
  }

  /** Forgets revoked sessions (and API tokens) that have expired. */
  prune(now = Date.now()): number {
    let removed = 0;
    for (const revoked of [this.revoked, this.revokedApiTokens]) {
      for (const [id, exp] of revoked) {
        if (exp <= now) {
          revoked.delete(id);
          removed++;
        }
      }
    }
    return removed;
  }

  stats() {
    return {
      users: this.users.size,
      usersWithRoles: this.memberships.size,
      revokedSessions: this.revoked.size,
    };
  }

  private setRoles(userId: string, roles: Record<string, Role>): void {
    if (Object.keys(roles).length === 0) this.memberships.delete(userId);
    else {
      this.memberships.set(
        userId,
        Object.freeze({ roles: Object.freeze(roles), version: ++this.seq }),
      );
    }
  }

  private remember(eventId: string): void {
    if (this.applied.size >= REMEMBERED_EVENTS) {
      const oldest = this.applied.values().next();
      if (!oldest.done) this.applied.delete(oldest.value);
    }
    this.applied.add(eventId);
  }
}
