/** A bounded memo for values keyed by content (text, names): a recently used entry outlives one that was not used since it came in. */

type Entry<Value> = { value: Value; used: boolean };

/**
 * Second chance (CLOCK) rather than strict least-recently-used: a hit only marks its entry, where moving
 * it to the end of the map (a delete and a set) made every hit a write, and a map that deletes on every
 * hit keeps growing holes and rebuilding itself (2 µs a lookup under load). Eviction walks from the
 * oldest entry: one used since it came in goes to the end, unmarked; the first unused one goes.
 */
export class RecentMemo<Key, Value> {
  /** Map iteration order is insertion order: the first key is the one in longest. */
  private readonly entries = new Map<Key, Entry<Value>>();

  constructor(readonly capacity: number) {}

  get(key: Key, compute: () => Value): Value {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      kept.used = true;
      return kept.value;
    }
    const value = compute();
    if (this.capacity <= 0) return value;
    if (this.entries.size >= this.capacity) this.evictOne();
    this.entries.set(key, { value, used: false });
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  private evictOne(): void {
    // Ends: each pass unmarks what it moves, so within one walk of the map an unused entry turns up.
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.entries.set(key, entry);
    }
  }
}
