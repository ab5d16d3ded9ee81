import { retryDelayMs } from './provider-errors';

describe('the wait before a retry', () => {
  it('when the provider asks for a wait, then the wait is never shorter and is spread by jitter', () => {
    const low = retryDelayMs(0, 2_000, 0);
    const high = retryDelayMs(0, 2_000, 0.999);

    expect(low).toBe(2_000);
    expect(high).toBeGreaterThan(2_300);
    expect(high).toBeLessThanOrEqual(3_000);
  });

  it('when the provider asks for no wait, then the retries are still spread a little', () => {
    expect(retryDelayMs(0, 0, 0.5)).toBeGreaterThan(0);
  });

  it('when the provider says nothing, then the backoff doubles with jitter and stops growing at about 4 s', () => {
    expect(retryDelayMs(0, null, 0.5)).toBe(250);
    expect(retryDelayMs(1, null, 0.5)).toBe(500);
    expect(retryDelayMs(0, null, 0)).toBe(187.5);
    expect(retryDelayMs(10, null, 0.999)).toBeLessThanOrEqual(5_000);
  });
});
