import { MongoClient } from 'mongodb';

export default async function globalTeardown() {
  const stack = globalThis.__AICT_STACK__;
  if (!stack) return;
  globalThis.__AICT_STACK_CONTROL__?.close();
  await stack.stop();
  await globalThis.__AICT_SSO_PROVIDER__?.stop();
  // Drop the run's databases so .data/ does not grow with every run.
  const client = new MongoClient('mongodb://127.0.0.1:27017', { serverSelectionTimeoutMS: 3000 });
  try {
    await client.connect();
    for (const db of stack.databases) await client.db(db).dropDatabase();
  } catch {
    /* best effort */
  } finally {
    await client.close();
  }
}
