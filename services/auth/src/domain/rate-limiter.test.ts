import { isAppError } from '@aict/service-kit';
import type { AttemptSlotRepository } from '../data/attempt-slot.repository';
import { rateLimiter } from './rate-limiter';

// The window arithmetic, with the slots in memory (the database behaviour — shared by
// replicas, exact under concurrency — is tested through HTTP in session.routes.test.ts).

/** Windows are aligned to multiples of their length: this start is 100 s into a 300 s one. */
function clock(start = 300_000 * 1000 + 100_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function memorySlots(): AttemptSlotRepository {
  const taken = new Map<string, Date>();
  return {
    take: async (id, expiresAt) => (taken.has(id) ? false : (taken.set(id, expiresAt), true)),
    release: async (id) => void taken.delete(id),
    purgeExpired: async (before) => {
      let n = 0;
      for (const [id, at] of taken) if (at <= before && taken.delete(id)) n++;
      return n;
    },
  };
}

async function refusal(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('rateLimiter', () => {
  it('when a key reaches its maximum, then the next attempt is 429 with the seconds left in Retry-After', async () => {
    const time = clock();
    const limiter = rateLimiter(memorySlots(), 300, time.now);
    const bucket = [{ key: 'login:alice|10.0.0.1', max: 2 }];
    await limiter.attempt(bucket);
    time.advance(100_000);
    await limiter.attempt(bucket);

    const refused = await refusal(() => limiter.attempt(bucket));

    expect(refused.status).toBe(429);
    expect(refused.code).toBe('RATE_LIMITED');
    expect(refused.headers).toEqual({ 'Retry-After': '100' }); // the window ends in 100 s
  });

  it('when the window has passed, then attempts are allowed again', async () => {
    const time = clock();
    const limiter = rateLimiter(memorySlots(), 300, time.now);
    const bucket = [{ key: 'k', max: 1 }];
    await limiter.attempt(bucket);
    time.advance(150_500);
    expect((await refusal(() => limiter.attempt(bucket))).headers).toEqual({
      'Retry-After': '50',
    });

    time.advance(49_500);

    await expect(limiter.attempt(bucket)).resolves.toBeDefined();
  });

  it('when any of several buckets is full, then the attempt is refused and counts in none', async () => {
    const limiter = rateLimiter(memorySlots(), 60, clock().now);
    await limiter.attempt([{ key: 'client', max: 1 }]);

    await refusal(() =>
      limiter.attempt([
        { key: 'user', max: 1 },
        { key: 'client', max: 1 },
      ]),
    );

    await expect(limiter.attempt([{ key: 'user', max: 1 }])).resolves.toBeDefined();
  });

  it('when the database fails on one bucket, then the slot taken in the other is given back', async () => {
    const memory = memorySlots();
    const failing: AttemptSlotRepository = {
      ...memory,
      take: async (id, expiresAt) => {
        if (id.startsWith('client|')) throw new Error('connection reset');
        return memory.take(id, expiresAt);
      },
    };
    const limiter = rateLimiter(failing, 60, clock().now);

    await expect(
      limiter.attempt([
        { key: 'user', max: 1 },
        { key: 'client', max: 1 },
      ]),
    ).rejects.toThrow('connection reset');

    await expect(limiter.attempt([{ key: 'user', max: 1 }])).resolves.toBeDefined();
  });

  it('when an attempt is refunded, then it does not count', async () => {
    const limiter = rateLimiter(memorySlots(), 60, clock().now);
    const bucket = [{ key: 'k', max: 1 }];

    await (await limiter.attempt(bucket)).refund();

    await expect(limiter.attempt(bucket)).resolves.toBeDefined();
  });

  it('when another replica took slots, then this one counts them too', async () => {
    const slots = memorySlots();
    const time = clock();
    const one = rateLimiter(slots, 60, time.now);
    const other = rateLimiter(slots, 60, time.now);
    const bucket = [{ key: 'k', max: 2 }];
    await one.attempt(bucket);
    await other.attempt(bucket);

    expect((await refusal(() => one.attempt(bucket))).status).toBe(429);
  });
});
