import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { currentContext, newRequestId } from '../context';
import { AppError } from '../errors';

/**
 * The envelope of every domain event: `{ id, type, version, occurredAt, correlationId,
 * causationId, data }`. `correlationId` is the request id that started it all (it crosses
 * the gateway and RabbitMQ); `causationId` is the id of the event being handled when this
 * one was raised, or null. The same shape as `@aict/contracts`' envelopes, declared here
 * so that the bus does not depend on contracts' internals.
 */
export interface Envelope<D = unknown, T extends string = string> {
  id: string;
  type: T;
  version: number;
  occurredAt: string;
  correlationId: string;
  causationId: string | null;
  data: D;
}

/**
 * The data schema of one event type: a zod schema, or `{ version, data }` as in
 * contracts' `EVENTS` (then a consumer refuses versions newer than `version`, and a
 * publisher stamps `version` on the envelope).
 */
export type EventSchema = z.ZodType | { version: number; data: z.ZodType };
export type EventSchemas = Record<string, EventSchema>;

type DataSchemaOf<S> = S extends { data: infer D extends z.ZodType }
  ? D
  : S extends z.ZodType
    ? S
    : never;

/** A validated event of one of the types of `S`, discriminated by `type`. */
export type EventFrom<S extends EventSchemas> = {
  [K in keyof S & string]: Envelope<z.output<DataSchemaOf<S[K]>>, K>;
}[keyof S & string];

const TraceId = z.string().min(1).max(128);

/** The envelope itself; `data` is checked against the schema of its type. */
export const envelopeShape = z.object({
  id: TraceId,
  type: z.string().min(1).max(128),
  version: z.number().int().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: TraceId,
  causationId: TraceId.nullable(),
  data: z.unknown(),
});

export interface EnvelopeOptions {
  /** Defaults to a fresh UUID. */
  id?: string;
  /** Defaults to the version registered for the type, else 1. */
  version?: number;
  /** Defaults to the current request id (context), else a fresh one. */
  correlationId?: string;
  /** Defaults to the id of the message being handled (context), else null. */
  causationId?: string | null;
  /** Defaults to now. */
  occurredAt?: Date;
}

function dataSchema(schema: EventSchema): z.ZodType {
  return schema instanceof z.ZodType ? schema : schema.data;
}

function maxVersion(schema: EventSchema): number | undefined {
  return schema instanceof z.ZodType ? undefined : schema.version;
}

/**
 * Builds an envelope inside the current request context. With a schema, `data` is
 * validated (and replaced by the parsed value); invalid data is a programming error:
 * `EVENT.INVALID` (500).
 */
export function buildEnvelope<D>(
  type: string,
  data: D,
  options: EnvelopeOptions = {},
  schema?: EventSchema,
): Envelope<D> {
  const ctx = currentContext();
  let payload = data;
  if (schema) {
    const parsed = dataSchema(schema).safeParse(data);
    if (!parsed.success) {
      throw new AppError('EVENT.INVALID', 500, `Invalid data for event ${type}`, {
        details: parsed.error.issues.map((i) => ({
          path: i.path.map(String).join('.'),
          message: i.message,
        })),
      });
    }
    payload = parsed.data as D;
  }
  return {
    id: options.id ?? randomUUID(),
    type,
    version: options.version ?? (schema ? maxVersion(schema) : undefined) ?? 1,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    correlationId: options.correlationId ?? ctx?.requestId ?? newRequestId(),
    causationId:
      options.causationId !== undefined ? options.causationId : (ctx?.causationId ?? null),
    data: payload,
  };
}

export type DecodeResult =
  | { ok: true; envelope: Envelope }
  | { ok: false; reason: string; issues?: unknown; envelope?: Partial<Envelope> };

/**
 * Decodes a message body: JSON, then the envelope, then `data` against the schema
 * registered for its type. Never throws: a failure says why (for the log).
 */
export function decodeEnvelope(content: Buffer, schemas: EventSchemas): DecodeResult {
  let raw: unknown;
  try {
    raw = JSON.parse(content.toString('utf8'));
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const envelope = envelopeShape.safeParse(raw);
  if (!envelope.success)
    return { ok: false, reason: 'not an event envelope', issues: summarise(envelope.error) };
  const { type, version } = envelope.data;
  const seen = { id: envelope.data.id, type, version };
  const schema = Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (!schema) return { ok: false, reason: `no schema for event type ${type}`, envelope: seen };
  const max = maxVersion(schema);
  if (max !== undefined && version > max) {
    return { ok: false, reason: `event version ${version} is newer than ${max}`, envelope: seen };
  }
  const data = dataSchema(schema).safeParse(envelope.data.data);
  if (!data.success)
    return { ok: false, reason: 'invalid data', issues: summarise(data.error), envelope: seen };
  return { ok: true, envelope: { ...envelope.data, data: data.data } };
}

function summarise(error: z.ZodError) {
  return error.issues
    .slice(0, 10)
    .map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** The durable topic exchange a service publishes its events to. */
export function eventsExchange(service: string): string {
  return `aict.${service}.events`;
}
