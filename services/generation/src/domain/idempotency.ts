import { createHash } from 'node:crypto';
import type { GenerationRecord } from '../data/generation.model';
import type { DomainDeps } from './domain-deps';
import { idempotencyConflict } from './generation.errors';

/** A running claim's lease, renewed while its holder works (a dead holder's claim frees up). */
const LEASE_MS = 20_000;
const RENEW_MS = 5_000;
const POLL_MS = 150;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Claim = { kind: 'run'; id: string } | { kind: 'replay'; response: unknown };

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The content id of the generation run under a claim: the same for every run of the same key,
 * so a run repeated after its holder crashed stores no second content (the content service
 * stores by id) and finds the first run's record if it was saved.
 */
export const contentIdOf = (claimId: string) => `k${sha256(`content:${claimId}`).slice(0, 40)}`;

/** The answer a saved generation gave (a replay after its holder crashed before answering). */
function answerOf(record: GenerationRecord) {
  return {
    result:
      record.contentType === 'image' ? { imageUrl: record.content } : { text: record.content },
    content: { id: record._id },
  };
}

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
  const deadline = Date.now() + d.config.IDEMPOTENCY_WAIT_MS;
  for (;;) {
    const now = new Date();
    const claimed = await d.idempotency.claim({
      _id: id,
      fingerprint,
      status: 'running',
      leaseUntil: new Date(now.getTime() + LEASE_MS),
      createdAt: now,
    });
    if (claimed) return { kind: 'run', id };
    const existing = await d.idempotency.findById(id);
    if (!existing) continue;
    if (existing.fingerprint !== fingerprint) throw idempotencyConflict();
    if (existing.status === 'done') return { kind: 'replay', response: existing.response };
    if (existing.leaseUntil.getTime() < now.getTime()) {
      // Its holder died. If it had saved the generation, that is the answer; otherwise free
      // the key and race for it again.
      const saved = await d.generations.findById(contentIdOf(id));
      if (saved) {
        const response = answerOf(saved);
        await completeKey(d, id, response);
        return { kind: 'replay', response };
      }
      await d.idempotency.removeExpired(id, existing.leaseUntil);
      continue;
    }
    if (Date.now() > deadline) throw idempotencyConflict();
    await sleep(POLL_MS);
  }
}

/** Renews the claim's lease while its holder works; call the result when done. */
export function holdKey(d: DomainDeps, id: string): () => void {
  const timer = setInterval(() => {
    d.idempotency
      .renewLease(id, new Date(Date.now() + LEASE_MS))
      .catch((err: unknown) => d.logger.warn({ err }, 'could not renew an idempotency lease'));
  }, RENEW_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function completeKey(d: DomainDeps, id: string, response: unknown): Promise<void> {
  await d.idempotency.complete(id, response);
}

/** The request failed: the key is free for a retry. */
export async function releaseKey(d: DomainDeps, id: string): Promise<void> {
  await d.idempotency.release(id);
}
