/** A bounded memo for values keyed by content (text, names): the least recently used entry goes first. */

export class RecentMemo<Key, Value> {
  /** Map iteration order is insertion order: the first key is the least recently used. */
  private readonly entries = new Map<Key, Value>();

  constructor(readonly capacity: number) {}

  get(key: Key, compute: () => Value): Value {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const value = compute();
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as Key);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
