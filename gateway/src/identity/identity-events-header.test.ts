import { createEvent } from '@aict/contracts';
import { decodeIdentityEvents, encodeIdentityEvents } from './identity-events-header';

const meta = { correlationId: 'req-1' };

describe('decodeIdentityEvents', () => {
  it('when the header holds identity events, then each is validated and returned in order', () => {
    const revoked = createEvent(
      'session.revoked',
      { sessionId: 's1', userId: 'u1', expiresAt: new Date().toISOString() },
      meta,
    );
    const changed = createEvent(
      'membership.changed',
      { workspaceId: 3, userId: 'u1', role: null },
      meta,
    );

    const decoded = decodeIdentityEvents(encodeIdentityEvents([revoked, changed]));

    expect(decoded).toEqual({ events: [revoked, changed], invalid: 0, ignored: 0 });
  });

  it('when other event types come along, then they are ignored', () => {
    const settings = createEvent(
      'settings.changed',
      { workspaceId: 1, key: 'default_text_model' },
      meta,
    );
    const deleted = createEvent('user.deleted', { userId: 'u1' }, meta);

    const decoded = decodeIdentityEvents(
      encodeIdentityEvents([settings, { type: 'something.new', data: {} }, deleted]),
    );

    expect(decoded).toEqual({ events: [deleted], invalid: 0, ignored: 2 });
  });

  it('when an entry is not a valid envelope, then it is counted as invalid and the others still apply', () => {
    const deleted = createEvent('user.deleted', { userId: 'u1' }, meta);

    const decoded = decodeIdentityEvents(
      encodeIdentityEvents([
        { ...deleted, data: { userId: 'bad id with spaces' } },
        { ...deleted, version: 99 },
        { ...deleted, id: 'not-a-uuid' },
        null,
        deleted,
      ]),
    );

    expect(decoded.events).toEqual([deleted]);
    expect(decoded.invalid).toBe(4);
  });

  it.each([
    ['not base64url JSON', 'nope, not json'],
    ['JSON that is not an array', Buffer.from('{"type":"user.deleted"}').toString('base64url')],
  ])(
    'when the header is %s, then nothing applies and one invalid entry is counted',
    (_what, value) => {
      expect(decodeIdentityEvents(value)).toEqual({ events: [], invalid: 1, ignored: 0 });
    },
  );

  it('when the header came twice, then both are read', () => {
    const a = createEvent('user.deleted', { userId: 'a' }, meta);
    const b = createEvent('user.deleted', { userId: 'b' }, meta);

    expect(
      decodeIdentityEvents([encodeIdentityEvents([a]), encodeIdentityEvents([b])]).events,
    ).toEqual([a, b]);
  });
});
