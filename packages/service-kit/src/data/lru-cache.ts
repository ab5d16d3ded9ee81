/**
 * A bounded map that forgets the least recently used entry when full. Small on purpose: the
 * gateway keeps verified session tokens and signed contexts in it, the generation service its
 * provider SDK clients, so a flood of distinct keys costs memory up to `max` entries and no more.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error('LruCache: max must be at least 1');
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as the most recent.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.entries.has(key)) this.entries.delete(key);
    else if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
