import { eventSchema } from '@aict/contracts';
import { IDENTITY_EVENT_TYPES, type IdentityEvent, type IdentityEventType } from './identity-state';

export interface DecodedIdentityEvents {
  events: IdentityEvent[];
  /** Entries that were not valid envelopes of a known identity event (logged by the caller). */
  invalid: number;
  /** Entries of other event types (ignored). */
  ignored: number;
}

/**
 * Decodes the `x-aict-identity-events` header of a service's answer: base64url of a JSON
 * array of event envelopes that the service has just published. Each envelope is validated
 * with contracts' schema of its type; types that do not concern identity are ignored. Never
 * throws: a header that cannot be decoded at all counts as one invalid entry.
 */
export function decodeIdentityEvents(value: string | string[]): DecodedIdentityEvents {
  const out: DecodedIdentityEvents = { events: [], invalid: 0, ignored: 0 };
  for (const part of Array.isArray(value) ? value : [value]) {
    let items: unknown;
    try {
      items = JSON.parse(Buffer.from(part.trim(), 'base64url').toString('utf8'));
    } catch {
      out.invalid++;
      continue;
    }
    if (!Array.isArray(items)) {
      out.invalid++;
      continue;
    }
    for (const item of items) {
      const type = (item as { type?: unknown } | null)?.type;
      if (typeof type !== 'string') {
        out.invalid++;
        continue;
      }
      if (!IDENTITY_EVENT_TYPES.has(type)) {
        out.ignored++;
        continue;
      }
      const parsed = eventSchema(type as IdentityEventType).safeParse(item);
      if (parsed.success) out.events.push(parsed.data as IdentityEvent);
      else out.invalid++;
    }
  }
  return out;
}

/** The header value a service sends (tests, and services that build it by hand). */
export function encodeIdentityEvents(events: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(events), 'utf8').toString('base64url');
}
