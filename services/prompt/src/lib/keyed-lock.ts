/**
 * Runs work for one key at a time, in arrival order, within this process.
 *
 * Why: FerretDB v1 (the local run and the tests) applies an update as read, change, write,
 * without isolation: two updates of one document at once can lose one of them, and a
 * conditional update can succeed twice (data/chain.ts has the measurement). Serialising the
 * writes of each prompt document and the outbox flushes makes this service correct there;
 * on MongoDB single-document updates are atomic anyway (and `rev` compare-and-set holds across
 * replicas). Keys are `<collection>:<_id>`. Not re-entrant: never take a key inside work that
 * already holds it.
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

  /** Keys held or awaited (tests). */
  get size(): number {
    return this.tails.size;
  }
}
