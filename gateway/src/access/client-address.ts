import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/**
 * The client's address, as the services are told it (the sign-in limits are keyed by it).
 * With no trusted proxy it is the socket's, and X-Forwarded-For is ignored: any client can
 * write one. Behind `trustedHops` proxies (an ingress: 1) each of which appends the address
 * it saw, it is the `trustedHops`-th address from the right of X-Forwarded-For (the socket
 * counting as the first hop) — what Express's `trust proxy = <number>` gives, from the same
 * library (proxy-addr). What a client wrote further left is never believed.
 */
export function clientAddressOf(trustedHops: number): (req: IncomingMessage) => string {
  const trust = (_address: string, hop: number) => hop < trustedHops;
  return (req) =>
    normalise(trustedHops === 0 ? (req.socket.remoteAddress ?? '') : proxyaddr(req, trust));
}

/** `::ffff:127.0.0.1` → `127.0.0.1`; at most 64 characters (the context's limit). */
function normalise(address: string): string {
  return (address.startsWith('::ffff:') ? address.slice(7) : address).slice(0, 64);
}
