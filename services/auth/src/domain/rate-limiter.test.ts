import { isAppError } from '@aict/service-kit';
import { rateLimiter } from './rate-limiter';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('rateLimiter', () => {
  it('when a key reaches its maximum, then the next attempt is 429 with the seconds left in Retry-After', () => {
    const time = clock();
    const limiter = rateLimiter(300, time.now);
    const bucket = [{ key: 'login:user:alice', max: 2 }];
    limiter.attempt(bucket);
    time.advance(100_000);
    limiter.attempt(bucket);

    const refused = refusal(() => limiter.attempt(bucket));

    expect(refused.status).toBe(429);
    expect(refused.code).toBe('RATE_LIMITED');
    expect(refused.headers).toEqual({ 'Retry-After': '200' }); // the window opened 100 s ago
  });

  it('when the window has passed, then attempts are allowed again', () => {
    const time = clock();
    const limiter = rateLimiter(60, time.now);
    const bucket = [{ key: 'k', max: 1 }];
    limiter.attempt(bucket);
    time.advance(30_500);
    expect(refusal(() => limiter.attempt(bucket)).headers).toEqual({ 'Retry-After': '30' });

    time.advance(29_500);

    expect(() => limiter.attempt(bucket)).not.toThrow();
  });

  it('when any of several buckets is full, then the attempt is refused and counts in none', () => {
    const limiter = rateLimiter(60, clock().now);
    limiter.attempt([{ key: 'ip', max: 1 }]);

    refusal(() =>
      limiter.attempt([
        { key: 'user', max: 1 },
        { key: 'ip', max: 1 },
      ]),
    );

    expect(() => limiter.attempt([{ key: 'user', max: 1 }])).not.toThrow();
  });

  it('when an attempt is refunded, then it does not count', () => {
    const limiter = rateLimiter(60, clock().now);
    const bucket = [{ key: 'k', max: 1 }];

    limiter.attempt(bucket).refund();

    expect(() => limiter.attempt(bucket)).not.toThrow();
  });
});
