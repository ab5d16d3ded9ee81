import type { Connection } from 'mongoose';
import {
  closeMongo,
  connectMongo,
  createLogger,
  KeyedLock,
  loadConfig,
  logLevel,
  mongoEnv,
} from '@aict/service-kit';
import { contentCollections } from './data/collections';
import { createHistoryRepository } from './data/history.repository';
import { createSearchIndexRepository } from './data/search-index.repository';
import { ownerKeyOf } from './data/layout';
import { reindexOwner, type ReindexResult } from './domain/search-index';

// The search index's repair command (README "Search index"):
//
//   npm run reindex -w @aict/content-service -- --workspace <id>   one workspace
//   npm run reindex -w @aict/content-service -- --user <userId>    one user's contents without a workspace
//   npm run reindex -w @aict/content-service -- --all              every owner
//
// It reads MONGO_URL (the content service's database) and rebuilds the index from the search
// pages.

const reindexEnv = mongoEnv.extend({ LOG_LEVEL: logLevel });

const USAGE =
  'Usage: reindex --workspace <id> | --user <userId> | --all (MONGO_URL names the content database).';

/** The owners the arguments name, or null when they do not make sense. */
export function ownersFromArgs(argv: readonly string[]): string[] | 'all' | null {
  const [flag, value, ...rest] = argv;
  if (rest.length > 0) return null;
  if (flag === '--all' && value === undefined) return 'all';
  if (flag === '--workspace' && value && /^\d+$/.test(value))
    return [ownerKeyOf(Number(value), '')];
  if (flag === '--user' && value) return [ownerKeyOf(null, value)];
  return null;
}

/** Rebuilds the named indexes over an open connection; one result per owner. */
export async function reindex(
  conn: Connection,
  owners: string[] | 'all',
  onDone: (r: ReindexResult) => void = () => undefined,
): Promise<ReindexResult[]> {
  const c = contentCollections(conn);
  const d = {
    history: createHistoryRepository(c),
    index: createSearchIndexRepository(c),
    locks: new KeyedLock(),
    logger: createLogger('content-reindex', { level: 'warn' }),
  };
  const keys = owners === 'all' ? await d.index.ownersWithSearchPages() : owners;
  const results: ReindexResult[] = [];
  for (const key of keys) {
    const result = await reindexOwner(d, key);
    results.push(result);
    onDone(result);
  }
  return results;
}

/** The command: exit code 0 when every named index was rebuilt, 2 for wrong arguments. */
export async function main(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const owners = ownersFromArgs(argv);
  if (!owners) {
    out(USAGE);
    return 2;
  }
  const config = loadConfig(reindexEnv, env);
  const logger = createLogger('content-reindex', { level: config.LOG_LEVEL });
  const conn = await connectMongo(config.MONGO_URL, logger, { retries: 2 });
  try {
    const results = await reindex(conn, owners, (r) =>
      out(`Search index of ${r.key} rebuilt: ${r.pages} pages, ${r.trigrams} trigrams.`),
    );
    out(`Done: ${results.length} search indexes rebuilt.`);
    return 0;
  } finally {
    await closeMongo(conn);
  }
}

if (require.main === module)
  void main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`Reindex failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
