import type { Response } from 'express';
import { IDENTITY_EVENTS_HEADER } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';

/**
 * ADR 0001: a response to a request that changed identity state carries the envelopes it
 * published (base64url JSON array), so the gateway that forwards it applies them before
 * the very next request; the gateway strips the header.
 */
export function setIdentityEvents(res: Response, events: readonly Envelope[]): void {
  // Audit entries are not identity state (and hold more than the gateway needs to see).
  const identity = events.filter((event) => event.type !== 'audit.recorded');
  if (identity.length === 0) return;
  res.setHeader(
    IDENTITY_EVENTS_HEADER,
    Buffer.from(JSON.stringify(identity), 'utf8').toString('base64url'),
  );
}
