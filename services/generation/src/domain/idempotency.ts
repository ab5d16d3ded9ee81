import { createHash } from 'node:crypto';
import type { DomainDeps } from './domain-deps';
import { idempotencyConflict } from './generation.errors';

const LEASE_MS = 10 * 60_000;
const POLL_MS = 150;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

export type Claim = { kind: 'run'; id: string } | { kind: 'replay'; response: unknown };

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Claims an Idempotency-Key for one user: the first request runs; a repeat of a finished one
 * gets the same answer; a repeat while the first is running waits for it (up to
 * IDEMPOTENCY_WAIT_MS, then 409); the same key with another request is 409.
 */
export async function claimKey(
  d: DomainDeps,
  userId: string,
  key: string,
  fingerprint: string,
): Promise<Claim> {
  const id = `${userId}:${sha256(key)}`;
  const Idem = d.models.Idempotency;
  const deadline = Date.now() + d.config.IDEMPOTENCY_WAIT_MS;
  for (;;) {
    const now = new Date();
    try {
      await Idem.create({
        _id: id,
        fingerprint,
        status: 'running',
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        createdAt: now,
      });
      return { kind: 'run', id };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const existing = await Idem.findById(id).lean();
    if (!existing) continue;
    if (existing.fingerprint !== fingerprint) throw idempotencyConflict();
    if (existing.status === 'done') return { kind: 'replay', response: existing.response };
    if (existing.leaseUntil.getTime() < now.getTime()) {
      // Its holder died: free the key and race for it again.
      await Idem.deleteOne({ _id: id, leaseUntil: existing.leaseUntil });
      continue;
    }
    if (Date.now() > deadline) throw idempotencyConflict();
    await sleep(POLL_MS);
  }
}

export async function completeKey(d: DomainDeps, id: string, response: unknown): Promise<void> {
  await d.models.Idempotency.updateOne({ _id: id }, { $set: { status: 'done', response } });
}

/** The request failed: the key is free for a retry. */
export async function releaseKey(d: DomainDeps, id: string): Promise<void> {
  await d.models.Idempotency.deleteOne({ _id: id, status: 'running' });
}
