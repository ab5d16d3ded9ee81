/** Counters of one bus since it was created (metrics hooks can read them later). */
export interface BusStats {
  /** Events handed to `publish` (each envelope once, however often it had to be re-sent). */
  published: number;
  /** Messages the broker confirmed. */
  confirmed: number;
  /** Publishes that failed (timeout, refused by the broker, bus closed). */
  publishFailed: number;
  /** Events handled successfully (acked). */
  consumed: number;
  /** Deliveries that were not first deliveries (broker redelivery or one of our retries). */
  redelivered: number;
  /** Failed handlings sent to the retry queue. */
  retried: number;
  /** Messages sent to a dead-letter queue (invalid, or failed too often). */
  deadLettered: number;
  /** Request/reply: requests sent and requests served. */
  requests: number;
  served: number;
  /** Successful connections (the first one included). */
  connections: number;
}

export function newStats(): BusStats {
  return {
    published: 0,
    confirmed: 0,
    publishFailed: 0,
    consumed: 0,
    redelivered: 0,
    retried: 0,
    deadLettered: 0,
    requests: 0,
    served: 0,
    connections: 0,
  };
}
