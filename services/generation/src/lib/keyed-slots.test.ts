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

  describe('the Retry-After of a refused caller', () => {
    /** Slots on a hand-moved clock whose refusals carry their Retry-After seconds. */
    const timed = () => {
      let clock = 0;
      const slots = createKeyedSlots({
        maxRunning: 2,
        maxQueued: 1,
        refuse: (seconds) => Object.assign(new Busy(), { seconds }),
        retryAfter: { minSeconds: 1, maxSeconds: 5 },
        now: () => clock,
      });
      return { slots, advance: (ms: number) => (clock += ms) };
    };
    /**
     * Slots whose key held a place 2 s (its two places free one caller a second), now with
     * both places taken and its one queue place filled: the next caller is refused.
     */
    const full = async () => {
      const timedSlots = timed();
      const { slots, advance } = timedSlots;
      const release = await slots.acquire('a');
      advance(2000);
      release();
      await slots.acquire('a');
      await slots.acquire('a');
      void slots.acquire('a'); // queued
      return timedSlots;
    };
    const secondsOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'granted',
        (err: { seconds: number }) => err.seconds,
      );

    it('when a flood is refused, then each caller is told to come back later than the one before, at the pace places free up, up to the maximum', async () => {
      const { slots } = await full();

      const told = [];
      for (let i = 0; i < 6; i++) told.push(await secondsOf(slots.acquire('a')));

      // The queued one, then each refused caller ahead of the next: 2, 3, 4 … s; at most 5.
      expect(told).toEqual([2, 3, 4, 5, 5, 5]);
    });

    it('when the callers told to come back have had their time, then the next one refused is told the shortest wait again', async () => {
      const { slots, advance } = await full();
      for (let i = 0; i < 3; i++) await secondsOf(slots.acquire('a'));

      advance(4000); // past the latest time given (4 s)

      expect(await secondsOf(slots.acquire('a'))).toBe(2);
    });

    it('when a key has no holding time yet, then a refused caller gets the least wait', async () => {
      const { slots } = timed();
      await slots.acquire('a');
      await slots.acquire('a');
      void slots.acquire('a');

      expect(await secondsOf(slots.acquire('a'))).toBe(1);
    });
  });

  describe('a flooding key while others are in use', () => {
    const flooded = () => {
      let clock = 0;
      const slots = createKeyedSlots({
        maxRunning: 4,
        maxQueued: 1,
        refuse: () => new Busy(),
        retryAfter: { minSeconds: 5, maxSeconds: 60 },
        floodShare: 0.5,
        now: () => clock,
      });
      return { slots, advance: (ms: number) => (clock += ms) };
    };

    it('when a key floods and another key is in use, then the flooding key gets a freed place only while under half its places', async () => {
      const { slots } = flooded();
      const releases = await Promise.all(Array.from({ length: 4 }, () => slots.acquire('a')));
      const waiting = slots.acquire('a');
      await expect(slots.acquire('a')).rejects.toBeInstanceOf(Busy); // a floods
      await slots.acquire('b'); // b is in use

      releases[0]!();
      releases[1]!();
      expect(await settled(waiting)).toBe('pending'); // a holds 2 of 4: its share
      releases[2]!();

      expect(await settled(waiting)).toBe('granted');
      expect(slots.usage('a')).toEqual({ running: 2, queued: 0 });
    });

    it('when the flooding key is alone, then it keeps all its places', async () => {
      const { slots } = flooded();
      const releases = await Promise.all(Array.from({ length: 4 }, () => slots.acquire('a')));
      const waiting = slots.acquire('a');
      await expect(slots.acquire('a')).rejects.toBeInstanceOf(Busy);

      releases[0]!();

      expect(await settled(waiting)).toBe('granted');
      expect(slots.usage('a')).toEqual({ running: 4, queued: 0 });
    });

    it('when the refused callers are due back, then the key is no longer held to its share', async () => {
      const { slots, advance } = flooded();
      const releases = await Promise.all(Array.from({ length: 4 }, () => slots.acquire('a')));
      const waiting = slots.acquire('a');
      await expect(slots.acquire('a')).rejects.toBeInstanceOf(Busy);
      await slots.acquire('b');

      advance(5_000); // the refused caller was told 5 s
      releases[0]!();

      expect(await settled(waiting)).toBe('granted');
      expect(slots.usage('a')).toEqual({ running: 4, queued: 0 });
    });
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
