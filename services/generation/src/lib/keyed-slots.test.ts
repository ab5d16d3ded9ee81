import { createKeyedSlots } from './keyed-slots';

class Busy extends Error {}

const build = (overrides: Partial<Parameters<typeof createKeyedSlots>[0]> = {}) =>
  createKeyedSlots({ maxRunning: 2, maxQueued: 1, refuse: () => new Busy(), ...overrides });

const settled = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(
    () => (state = 'granted'),
    () => (state = 'refused'),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('keyed slots', () => {
  it('when a key has all its places taken and its queue full, then the next caller is refused at once', async () => {
    const slots = build();
    await slots.acquire('a');
    await slots.acquire('a');
    const queued = slots.acquire('a');

    await expect(slots.acquire('a')).rejects.toBeInstanceOf(Busy);
    expect(await settled(queued)).toBe('pending');
    expect(slots.usage('a')).toEqual({ running: 2, queued: 1 });
  });

  it('when one key is full, then another key still gets a place at once', async () => {
    const slots = build({ maxQueued: 0 });
    await slots.acquire('a');
    await slots.acquire('a');

    expect(await settled(slots.acquire('b'))).toBe('granted');
  });

  it('when a holder releases, then the first waiter gets its place, and a second release does nothing', async () => {
    const slots = build({ maxRunning: 1, maxQueued: 2 });
    const release = await slots.acquire('a');
    const first = slots.acquire('a');
    const second = slots.acquire('a');

    release();
    release();

    expect(await settled(first)).toBe('granted');
    expect(await settled(second)).toBe('pending');
    expect(slots.usage('a')).toEqual({ running: 1, queued: 1 });
  });

  it('when a waiter gives up, then it leaves the queue and is refused', async () => {
    const slots = build({ maxRunning: 1 });
    const release = await slots.acquire('a');
    const controller = new AbortController();
    const waiting = slots.acquire('a', controller.signal);

    controller.abort();

    await expect(waiting).rejects.toBeInstanceOf(Busy);
    release();
    expect(slots.usage('a')).toEqual({ running: 0, queued: 0 });
  });
});
