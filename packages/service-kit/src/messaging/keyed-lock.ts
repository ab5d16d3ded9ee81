/**
 * Runs work for one key at a time, in arrival order, within this process.
 *
 * Why: FerretDB v1 (the local run and the tests) applies an update as read, change, write,
 * without isolation: two updates of one document at once can lose one of them (a `$push`
 * onto `_outbox`, an `$inc`), and a conditional update can succeed twice. Serialising the
 * writes (and the outbox flushes) of each document makes this service correct there; on
 * MongoDB single-document updates are atomic anyway. Keys are `<collection>:<_id>`.
 * Not re-entrant: never take a key inside work that already holds it.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys currently held or awaited (tests). */
  get size(): number {
    return this.tails.size;
  }
}
