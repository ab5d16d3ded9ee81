// The baseline of the service-list benchmark: raw node:http and the native MongoDB driver
// doing the same reads as the prompt service's GET /api/prompts on the same database: per
// chain (the workspace's summary `ws:<id>`, the `public` summary and the default pointer
// `default:<id>`) the head, the version last seen and the next one, all by `_id` and in
// parallel; then the same merge, sort and JSON. No context check, no validation, no logging.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../../infra/lib/paths.mjs';

const require = createRequire(import.meta.url);
const { MongoClient } = require(
  require.resolve('mongodb', { paths: [join(ROOT, 'services/prompt')] }),
);

const client = new MongoClient(process.env.MONGO_URL);
await client.connect();
const db = client.db();
const summaries = db.collection('prompt_summaries');
const defaults = db.collection('prompt_defaults');
const seen = new Map();

async function latest(collection, chain) {
  const known = seen.get(chain) ?? 0;
  const link = (n) => (n > 0 ? collection.findOne({ _id: `${chain}@${n}` }) : null);
  const [head, at, next] = await Promise.all([
    collection.findOne({ _id: chain }, { projection: { head: 1 } }),
    link(known),
    link(known + 1),
  ]);
  let start = Math.max(known, head?.head ?? 0);
  let current = start === known ? at : await link(start);
  let following = start === known ? next : await link(start + 1);
  while (following) {
    current = following;
    start += 1;
    following = await link(start + 1);
  }
  if (current) seen.set(chain, current.n);
  return current;
}

/** A summary version's entries: stored as the JSON of the list (older versions: the list). */
function entriesOf(link) {
  const entries = link?.value.entries ?? [];
  return typeof entries === 'string' ? JSON.parse(entries) : entries;
}

function present(entry, isDefault) {
  const summary = {
    id: entry.id,
    name: entry.name,
    category: entry.category,
    contentType: entry.contentType,
    model: entry.model,
    isPublic: entry.isPublic,
    isDefault,
    variables: entry.variables,
    workspaceId: entry.workspaceId,
    userId: entry.userId,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
  if (entry.description) summary.description = entry.description;
  return summary;
}

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://x');
    const workspaceId = Number(url.searchParams.get('workspaceId'));
    const [own, shared, pointer] = await Promise.all([
      latest(summaries, `ws:${workspaceId}`),
      latest(summaries, 'public'),
      latest(defaults, `default:${workspaceId}`),
    ]);
    const defaultId = pointer?.value.promptId ?? null;
    const byId = new Map(entriesOf(own).map((e) => [e.id, e]));
    for (const e of entriesOf(shared)) if (!byId.has(e.id)) byId.set(e.id, e);
    const body = [...byId.values()]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
      .map((e) => present(e, e.workspaceId === workspaceId && defaultId === e.id));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void client.close().then(() => process.exit(0));
});
