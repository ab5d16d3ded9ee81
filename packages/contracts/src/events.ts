import { z } from 'zod';
import { EntityId, WorkspaceId } from './ids';
import { Category, ContentType, IsoDateTime, Role } from './primitives';
import { SettingKey } from './entities/setting';
import { GeneratedContent } from './rpc/content';

// Domain events on RabbitMQ. Names are `<entity>.<past-verb>`. Data schemas only grow by
// optional fields; a breaking change bumps the event's version, and a consumer refuses a
// version newer than the one it knows (the message goes to its dead-letter queue).

const TraceId = z.string().min(1).max(128);

/** The envelope of event `type` whose data is `data`, accepting versions 1…`maxVersion`. */
export function envelopeSchema<const T extends string, D extends z.ZodType>(
  type: T,
  data: D,
  maxVersion: number = Number.MAX_SAFE_INTEGER,
) {
  return z.object({
    id: z.uuid(),
    type: z.literal(type),
    version: z.number().int().min(1).max(maxVersion),
    occurredAt: IsoDateTime,
    /** The request id that started it all (crosses gateway and RabbitMQ). */
    correlationId: TraceId,
    /** The id of the event (or request) that directly caused this one, if any. */
    causationId: TraceId.nullable(),
    data,
  });
}

const UserSnapshot = z.object({
  userId: EntityId,
  username: z.string(),
  email: z.string(),
  isSuperAdmin: z.boolean(),
});

const WorkspaceSnapshot = z.object({
  workspaceId: WorkspaceId,
  name: z.string(),
  slug: z.string(),
  description: z.string().optional(),
  logoUrl: z.string().optional(),
});

const PromptSnapshot = z.object({
  promptId: EntityId,
  workspaceId: WorkspaceId.nullable(),
  userId: EntityId,
  name: z.string(),
  category: Category,
  contentType: ContentType,
  model: z.string(),
  isPublic: z.boolean(),
  isDefault: z.boolean(),
});

/** A flat before/after summary of an audited act: never a secret (a key says only that it changed). */
export const AuditSummary = z
  .record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
  .refine((summary) => Object.keys(summary).length <= 30, 'Too many summary fields');
export type AuditSummary = z.infer<typeof AuditSummary>;

/** One administrative act (issue 17), appended to the audit log by the auth service. */
export const AuditAct = z.object({
  /** Who did it: null for an act without a signed-in actor (a failed sign-in). */
  actorId: EntityId.nullable(),
  /** A readable name of the actor when known (the username tried, for a failed sign-in). */
  actorName: z.string().max(200).optional(),
  workspaceId: WorkspaceId.nullable(),
  /** `<entity>.<verb>`: user.created, session.login-failed, api-token.revoked… */
  action: z
    .string()
    .regex(/^[a-z-]+\.[a-z-]+$/)
    .max(64),
  targetType: z.string().max(32),
  targetId: z.string().max(200),
  before: AuditSummary.nullable(),
  after: AuditSummary.nullable(),
  /** The client's address as the gateway saw it. */
  clientAddress: z.string().max(64).optional(),
});
export type AuditAct = z.infer<typeof AuditAct>;

/** Each event type with its current version and data schema. */
export const EVENTS = {
  'user.created': { version: 1, data: UserSnapshot },
  'user.updated': { version: 1, data: UserSnapshot },
  'user.deleted': { version: 1, data: z.object({ userId: EntityId }) },
  /** Tokens issued with an older tokenVersion are refused from now on. */
  'user.sessions-revoked': {
    version: 1,
    data: z.object({ userId: EntityId, tokenVersion: z.number().int().nonnegative() }),
  },
  /** One session (sign-in) ended by logout: its token is refused until it expires. */
  'session.revoked': {
    version: 1,
    data: z.object({ sessionId: EntityId, userId: EntityId, expiresAt: IsoDateTime }),
  },
  /** A personal API token was revoked: refused from now on (it expires at `expiresAt` anyway). */
  'api-token.revoked': {
    version: 1,
    data: z.object({ tokenId: EntityId, userId: EntityId, expiresAt: IsoDateTime }),
  },
  /** An administrative act to append to the audit log (request id: the envelope's correlationId). */
  'audit.recorded': { version: 1, data: AuditAct },
  'workspace.created': { version: 1, data: WorkspaceSnapshot },
  'workspace.updated': { version: 1, data: WorkspaceSnapshot },
  'workspace.deleted': { version: 1, data: z.object({ workspaceId: WorkspaceId }) },
  /** role null: the user left the workspace. */
  'membership.changed': {
    version: 1,
    data: z.object({ workspaceId: WorkspaceId, userId: EntityId, role: Role.nullable() }),
  },
  /** workspaceId null: a global setting. Strict: a value (a key!) is never published. */
  'settings.changed': {
    version: 1,
    data: z.strictObject({ workspaceId: WorkspaceId.nullable(), key: SettingKey }),
  },
  'prompt.created': { version: 1, data: PromptSnapshot },
  'prompt.updated': { version: 1, data: PromptSnapshot },
  'prompt.deleted': {
    version: 1,
    data: z.object({ promptId: EntityId, workspaceId: WorkspaceId.nullable() }),
  },
  /**
   * The workspace's default prompt is now `promptId` (null: none). The authority on the
   * default: `isDefault` in prompt.created/updated is the flag as that write requested it.
   * `sequence` grows with every change of the workspace's default (keep the highest seen).
   */
  'prompt.default-changed': {
    version: 1,
    data: z.object({
      workspaceId: WorkspaceId,
      promptId: EntityId.nullable(),
      sequence: z.number().int().positive(),
    }),
  },
  'content.created': {
    version: 1,
    data: z.object({
      contentId: EntityId,
      workspaceId: WorkspaceId.nullable(),
      userId: EntityId,
      contentType: ContentType,
      promptId: EntityId.nullable(),
      parentId: EntityId.nullable(),
      title: z.string(),
      model: z.string(),
      language: z.string(),
      createdAt: IsoDateTime,
    }),
  },
  /**
   * A finished generation for the content service to store (at least once, from the
   * generation service's outbox; stored idempotently by id). See rpc/content.ts.
   */
  'generation.completed': { version: 1, data: GeneratedContent },
  'content.deleted': {
    version: 1,
    data: z.object({
      contentId: EntityId,
      workspaceId: WorkspaceId.nullable(),
      contentType: ContentType,
    }),
  },
} as const satisfies Record<string, { version: number; data: z.ZodType }>;

export type EventType = keyof typeof EVENTS;
export const EVENT_TYPES = Object.keys(EVENTS) as [EventType, ...EventType[]];

export type EventData<T extends EventType> = z.output<(typeof EVENTS)[T]['data']>;

export interface Envelope<T extends string, D> {
  id: string;
  type: T;
  version: number;
  occurredAt: string;
  correlationId: string;
  causationId: string | null;
  data: D;
}

/** A parsed event of one type, e.g. `EventOf<'workspace.deleted'>`. */
export type EventOf<T extends EventType> = Envelope<T, EventData<T>>;
/** Any known event, discriminated by `type`. */
export type AnyEvent = { [T in EventType]: EventOf<T> }[EventType];

const ENVELOPES = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, envelopeSchema(type, EVENTS[type].data, EVENTS[type].version)]),
) as unknown as { [T in EventType]: z.ZodType<EventOf<T>> };

const KnownType = z.object({ type: z.enum(EVENT_TYPES) });

/** The envelope schema of one event type (for a consumer bound to it). */
export function eventSchema<T extends EventType>(type: T): z.ZodType<EventOf<T>> {
  return ENVELOPES[type];
}

/** Validates a decoded message; throws a ZodError when it is not a known, valid event. */
export function parseEvent(raw: unknown): AnyEvent {
  const { type } = KnownType.parse(raw);
  return ENVELOPES[type].parse(raw) as AnyEvent;
}

export interface EventMeta {
  correlationId: string;
  causationId?: string | null;
  /** Defaults to a fresh UUID. */
  id?: string;
  /** Defaults to now. */
  occurredAt?: Date;
}

/** Builds a valid envelope at the event's current version; throws a ZodError on bad data. */
export function createEvent<T extends EventType>(
  type: T,
  data: z.input<(typeof EVENTS)[T]['data']>,
  meta: EventMeta,
): EventOf<T> {
  return ENVELOPES[type].parse({
    id: meta.id ?? globalThis.crypto.randomUUID(),
    type,
    version: EVENTS[type].version,
    occurredAt: (meta.occurredAt ?? new Date()).toISOString(),
    correlationId: meta.correlationId,
    causationId: meta.causationId ?? null,
    data,
  });
}
