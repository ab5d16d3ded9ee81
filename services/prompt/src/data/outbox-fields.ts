/** A raw document as the repositories return it: without the outbox's own fields. */
export function withoutOutbox<T>(doc: object): T {
  const { _outbox: _events, _deletedAt: _tombstone, ...rest } = doc as Record<string, unknown>;
  return rest as T;
}

export function isDuplicateKey(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 11000 || code === 11001;
}
