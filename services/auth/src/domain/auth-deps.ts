import type { EventData, EventType } from '@aict/contracts';
import type { Envelope, Logger, OutboxModel } from '@aict/service-kit';
import type { ClaimRepository } from '../data/claim.repository';
import type { MembershipRepository } from '../data/membership.repository';
import type { RevokedSessionRepository } from '../data/revoked-session.repository';
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
}

/** What the use cases work with; built once in app.ts. */
export interface AuthDeps {
  users: UserRepository;
  claims: ClaimRepository;
  sessions: RevokedSessionRepository;
  memberships: MembershipRepository;
  tokens: SessionTokens;
  limiter: RateLimiter;
  limits: { perIp: number; perUsername: number };
  events: EventOutbox;
  workspace: WorkspaceClient;
  /** Serialises the writes (and outbox flushes) of one document; see keyed-lock.ts. */
  locks: KeyedLock;
  logger: Logger;
}
