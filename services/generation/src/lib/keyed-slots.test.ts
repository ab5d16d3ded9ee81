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

  describe('with places shared among the keys in use', () => {
    it('when one key alone is busy, then it holds all its places', async () => {
      const slots = build({ maxRunning: 4, maxQueued: 10, sharedPlaces: 4 });
      await Promise.all(Array.from({ length: 4 }, () => slots.acquire('a')));

      expect(slots.usage('a')).toEqual({ running: 4, queued: 0 });
    });

    it('when a second key arrives, then the busy key gives places back as they free up until each holds its share', async () => {
      const slots = build({ maxRunning: 4, maxQueued: 10, sharedPlaces: 4 });
      const releasesOfA = await Promise.all(Array.from({ length: 4 }, () => slots.acquire('a')));
      const waitingOfA = [slots.acquire('a'), slots.acquire('a')];

      // b is in use now: a's share is 2, b gets a place at once (every key gets at least one).
      const b = slots.acquire('b');
      expect(await settled(b)).toBe('granted');

      releasesOfA[0]!();
      releasesOfA[1]!();
      // a went from 4 to 2 holders: its waiters wait, the freed places are not passed on.
      expect(await settled(waitingOfA[0]!)).toBe('pending');
      expect(slots.usage('a')).toEqual({ running: 2, queued: 2 });

      expect(await settled(slots.acquire('b'))).toBe('granted');
      expect(slots.usage('b')).toEqual({ running: 2, queued: 0 });
    });

    it('when the other key is done, then the waiting key takes the room it left', async () => {
      const slots = build({ maxRunning: 4, maxQueued: 10, sharedPlaces: 4 });
      await Promise.all([slots.acquire('a'), slots.acquire('a')]);
      const releasesOfB = await Promise.all([slots.acquire('b'), slots.acquire('b')]);
      const waitingOfA = [slots.acquire('a'), slots.acquire('a')];
      expect(await settled(waitingOfA[0]!)).toBe('pending');

      releasesOfB.forEach((release) => release());

      expect(await settled(waitingOfA[0]!)).toBe('granted');
      expect(await settled(waitingOfA[1]!)).toBe('granted');
      expect(slots.usage('a')).toEqual({ running: 4, queued: 0 });
      expect(slots.usage('b')).toEqual({ running: 0, queued: 0 });
    });
  });
});
