import type { EventData, EventType } from '@aict/contracts';
import type { Envelope, Logger, OutboxModel } from '@aict/service-kit';
import type { AuditRepository } from '../data/audit.repository';
import type { ApiTokenRepository } from '../data/api-token.repository';
import type { ClaimRepository } from '../data/claim.repository';
import type { MembershipRepository } from '../data/membership.repository';
import type { RevokedSessionRepository } from '../data/revoked-session.repository';
import type { SsoIdentityRepository } from '../data/sso-identity.repository';
import type { OidcClient } from '../rpc/oidc.client';
import type { WorkspaceClient } from '../rpc/workspace.client';
import type { UserRepository } from '../data/user.repository';
import type { KeyedLock } from '@aict/service-kit';
import type { RateLimiter } from './rate-limiter';
import type { SessionTokens } from './session-tokens';

/** Builds the events of a change (validated against contracts) and publishes them after the write. */
export interface EventOutbox {
  envelope<T extends EventType>(type: T, data: EventData<T>): Envelope<EventData<T>>;
  /**
   * Publishes what the document's outbox holds, in the background, after the writes of the
   * document queued before it (the sweep covers a failure).
   */
  publishSoon(model: OutboxModel, id: string): void;
  /** Publishes an event that no write carries (with the broker's confirm). */
  publishNow(envelope: Envelope): Promise<void>;
}

/** Single sign-on (OpenID Connect), when configured. */
export interface SsoDeps {
  client: OidcClient;
  identities: SsoIdentityRepository;
  /** The claim listing `<prefix>:<workspace name>:admin|user` values. */
  rolesClaim: string;
  rolesPrefix: string;
  label: string;
  /** Whether users created by a single sign-on may also sign in with a password. */
  passwordLogin: boolean;
}

/** What the use cases work with; built once in app.ts. */
export interface AuthDeps {
  users: UserRepository;
  claims: ClaimRepository;
  sessions: RevokedSessionRepository;
  memberships: MembershipRepository;
  /** Personal API tokens (stored by the hash of their secret). */
  apiTokens: ApiTokenRepository;
  tokens: SessionTokens;
  /** The audit log (this service owns it). */
  audit: AuditRepository;
  limiter: RateLimiter;
  limits: { perIp: number; perUsername: number };
  events: EventOutbox;
  workspace: WorkspaceClient;
  /** Serialises the writes (and outbox flushes) of one document; see keyed-lock.ts. */
  locks: KeyedLock;
  logger: Logger;
  /** Absent when single sign-on is off. */
  sso?: SsoDeps;
}
