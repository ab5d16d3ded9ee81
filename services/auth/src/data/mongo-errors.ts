/** A write refused because a document with the same `_id` (or unique key) exists. */
export function isDuplicateKey(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 11000 || code === 11001;
}
