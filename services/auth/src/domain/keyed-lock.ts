/**
 * The lock key of a document: its collection and `_id` (for service-kit's KeyedLock, which
 * serialises the writes of one document: FerretDB v1 does not apply concurrent updates of
 * one document atomically).
 */
export const documentKey = (collection: string, id: string) => `${collection}\u0000${id}`;
