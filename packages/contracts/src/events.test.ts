import { z } from 'zod';
import {
  createEvent,
  envelopeSchema,
  EVENT_TYPES,
  EVENTS,
  eventSchema,
  parseEvent,
  type EventOf,
} from './events';

function buildEnvelope(overrides: Record<string, unknown> = {}) {
  return {
    id: '3b241101-e2bb-4255-8caf-4136c566a962',
    type: 'workspace.deleted',
    version: 1,
    occurredAt: '2025-01-02T03:04:05.000Z',
    correlationId: 'req-1',
    causationId: null,
    data: { workspaceId: 7 },
    ...overrides,
  };
}

describe('parseEvent', () => {
  it('when a valid envelope arrives, then it is returned typed by its type', () => {
    const event = parseEvent(buildEnvelope());

    expect(event.type).toBe('workspace.deleted');
    if (event.type === 'workspace.deleted') {
      const deleted: EventOf<'workspace.deleted'> = event;
      expect(deleted.data.workspaceId).toBe(7);
    }
  });

  it('when the type is unknown, then a ZodError is thrown', () => {
    expect(() => parseEvent(buildEnvelope({ type: 'workspace.renamed' }))).toThrow(z.ZodError);
  });

  it('when the data does not fit the type, then a ZodError is thrown', () => {
    expect(() => parseEvent(buildEnvelope({ data: { workspaceId: 'abc' } }))).toThrow(z.ZodError);
  });

  it.each([
    ['the id is not a UUID', { id: 'not-a-uuid' }],
    ['the version is 0', { version: 0 }],
    ['the version is newer than known', { version: 2 }],
    ['occurredAt is not an ISO time', { occurredAt: 'yesterday' }],
    ['the correlation id is empty', { correlationId: '' }],
    ['the causation id is missing', { causationId: undefined }],
  ])('when %s, then a ZodError is thrown', (_case, overrides) => {
    expect(() => parseEvent(buildEnvelope(overrides))).toThrow(z.ZodError);
  });

  it('when the input is not an object, then a ZodError is thrown', () => {
    expect(() => parseEvent('{"type":"workspace.deleted"}')).toThrow(z.ZodError);
    expect(() => parseEvent(null)).toThrow(z.ZodError);
  });

  it('when a membership ends, then role null is accepted', () => {
    const event = parseEvent(
      buildEnvelope({
        type: 'membership.changed',
        data: { workspaceId: 2, userId: 'u1', role: null },
      }),
    );

    expect(event.data).toEqual({ workspaceId: 2, userId: 'u1', role: null });
  });

  it('when settings.changed carries a value, then it is refused', () => {
    const raw = buildEnvelope({
      type: 'settings.changed',
      data: { workspaceId: null, key: 'openai_api_key', value: 'sk-secret' },
    });

    expect(() => parseEvent(raw)).toThrow(z.ZodError);
  });
});

describe('createEvent', () => {
  it('when an event is created, then it has a fresh id, the current version and parses back', () => {
    const event = createEvent(
      'user.sessions-revoked',
      { userId: 'u1', tokenVersion: 3 },
      { correlationId: 'req-9', occurredAt: new Date('2025-05-06T07:08:09Z') },
    );

    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'user.sessions-revoked',
      version: EVENTS['user.sessions-revoked'].version,
      occurredAt: '2025-05-06T07:08:09.000Z',
      correlationId: 'req-9',
      causationId: null,
      data: { userId: 'u1', tokenVersion: 3 },
    });
    expect(parseEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('when the data is wrong, then a ZodError is thrown', () => {
    const data = { workspaceId: 1 } as unknown as { workspaceId: number; key: 'openai_api_key' };

    expect(() => createEvent('settings.changed', data, { correlationId: 'r' })).toThrow(z.ZodError);
  });
});

describe('envelopeSchema', () => {
  it('when a custom envelope is built, then it checks its type literal and data', () => {
    const schema = envelopeSchema('thing.done', z.object({ n: z.number() }));

    expect(schema.parse(buildEnvelope({ type: 'thing.done', data: { n: 1 } })).data.n).toBe(1);
    expect(() => schema.parse(buildEnvelope({ data: { n: 1 } }))).toThrow(z.ZodError);
  });

  it('when a schema of one type meets another type, then it refuses it', () => {
    const result = eventSchema('user.deleted').safeParse(buildEnvelope());

    expect(result.success).toBe(false);
  });
});

describe('EVENTS', () => {
  it('when the registry is listed, then it holds the agreed event types', () => {
    expect(EVENT_TYPES).toEqual([
      'user.created',
      'user.updated',
      'user.deleted',
      'user.sessions-revoked',
      'session.revoked',
      'api-token.revoked',
      'audit.recorded',
      'workspace.created',
      'workspace.updated',
      'workspace.deleted',
      'membership.changed',
      'settings.changed',
      'prompt.created',
      'prompt.updated',
      'prompt.deleted',
      'prompt.default-changed',
      'content.created',
      'generation.completed',
      'content.deleted',
    ]);
  });
});
