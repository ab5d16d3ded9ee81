import type { Response } from 'express';
import { IDENTITY_EVENTS_HEADER } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';

/**
 * Hands the identity events a request published to the gateway in front of it, which
 * applies them before it answers, so that the caller's very next request sees the change
 * (docs/adr/0001-identity-and-tenancy.md). Other gateways learn it from RabbitMQ.
 */
export function setIdentityEvents(res: Response, events: readonly Envelope[]): void {
  if (events.length === 0) return;
  res.set(IDENTITY_EVENTS_HEADER, Buffer.from(JSON.stringify(events)).toString('base64url'));
}
