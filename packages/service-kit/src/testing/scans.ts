import type { mongo } from 'mongoose';

/** A command that addressed one document by `_id` and another condition, and matched nothing. */
export interface ScanOnMiss {
  command: string;
  collection: string;
  filter: Record<string, unknown>;
}

const isScalarId = (value: unknown) =>
  value !== null && (typeof value !== 'object' || value.constructor?.name === 'ObjectId');

/**
 * Records the reads and writes that name a document by `_id` plus another condition and
 * match nothing. FerretDB v1 answers those by scanning the whole collection: measured on
 * 5,000 documents, such a `replaceOne` or `findOne` took 170–200 ms when it missed, against
 * 1–12 ms when it matched and 0.7 ms for an `_id` alone, so a hot path must read by `_id`
 * and decide in code. The client must be opened with `monitorCommands: true`.
 */
export function recordScansOnMiss(client: mongo.MongoClient): {
  misses: ScanOnMiss[];
  stop(): void;
} {
  const misses: ScanOnMiss[] = [];
  const started = new Map<number, ScanOnMiss>();
  const onStarted = (event: mongo.CommandStartedEvent) => {
    const command = event.command as Record<string, unknown>;
    const statements: Record<string, unknown>[] | undefined =
      event.commandName === 'find'
        ? [{ q: command.filter }]
        : event.commandName === 'update'
          ? (command.updates as Record<string, unknown>[])
          : event.commandName === 'delete'
            ? (command.deletes as Record<string, unknown>[])
            : undefined;
    const filter = statements?.length === 1 ? statements[0]?.q : undefined;
    if (!filter || typeof filter !== 'object') return;
    const keys = Object.keys(filter);
    if (keys.length < 2 || !keys.includes('_id')) return;
    if (!isScalarId((filter as Record<string, unknown>)._id)) return;
    started.set(event.requestId, {
      command: event.commandName,
      collection: String(command[event.commandName]),
      filter: filter as Record<string, unknown>,
    });
  };
  const onSucceeded = (event: mongo.CommandSucceededEvent) => {
    const found = started.get(event.requestId);
    if (!found) return;
    started.delete(event.requestId);
    const reply = event.reply as { n?: number; cursor?: { firstBatch?: unknown[] } };
    const matched =
      found.command === 'find' ? (reply.cursor?.firstBatch?.length ?? 0) : (reply.n ?? 0);
    if (matched === 0) misses.push(found);
  };
  const onFailed = (event: mongo.CommandFailedEvent) => started.delete(event.requestId);
  client.on('commandStarted', onStarted);
  client.on('commandSucceeded', onSucceeded);
  client.on('commandFailed', onFailed);
  return {
    misses,
    stop() {
      client.off('commandStarted', onStarted);
      client.off('commandSucceeded', onSucceeded);
      client.off('commandFailed', onFailed);
    },
  };
}

/**
 * The `_id`s that `find` commands on these collections named while `work` ran, in order (a
 * test of what a code path reads). The client must be opened with `monitorCommands: true`.
 */
export async function readsDuring(
  client: mongo.MongoClient,
  collections: string | readonly string[],
  work: () => Promise<unknown>,
): Promise<string[]> {
  const names = new Set(typeof collections === 'string' ? [collections] : collections);
  const reads: string[] = [];
  const onStarted = (event: mongo.CommandStartedEvent) => {
    const command = event.command as { find?: string; filter?: { _id?: unknown } };
    if (command.find !== undefined && names.has(command.find))
      reads.push(String(command.filter?._id));
  };
  client.on('commandStarted', onStarted);
  try {
    await work();
  } finally {
    client.off('commandStarted', onStarted);
  }
  return reads;
}
