/** A write that failed because its `_id` (or another unique key) is taken. */
export function isDuplicateKey(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 11000 || code === 11001;
}
