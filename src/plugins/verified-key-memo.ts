/**
 * The client keys already verified, by the text presented, so that a client sending its key again skips
 * the digest and the constant-time scan (a SHA-256 per request, about 3 µs on the shared machine).
 *
 * Only a key that passed the constant-time check is ever stored, so a miss (a wrong key, a probe) always
 * takes the full constant-time path, and the memo can hold no more entries than there are configured keys;
 * the capacity bounds it anyway, the oldest entry going first. What a lookup's timing can tell is whether
 * the text is a configured key, which the reply's status says anyway: the Map compares the text with a
 * stored key only when V8's per-process seeded string hashes of the two are equal. The texts are held in
 * memory only, as the config holds them; never logged, never a metric label.
 */

export class VerifiedKeyMemo<Entry> {
  /** Insertion order is age: the first key is the oldest. */
  private readonly entries = new Map<string, Entry>();

  constructor(readonly capacity: number) {}

  get(presented: string): Entry | undefined {
    return this.entries.get(presented);
  }

  remember(presented: string, entry: Entry): void {
    if (this.entries.has(presented)) return;
    this.entries.set(presented, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}
