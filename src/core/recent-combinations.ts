/**
 * Recent joins of two long texts, handed back as the same string object: a caller that remembers a
 * text by identity (a long text's JSON) then finds it without comparing tens of kilobytes. Compared by
 * the parts, which are usually the very strings of the last request, so the comparison is a pointer check.
 */

type Combination = { first: string; second: string; joined: string };

export class RecentCombinations {
  /** Most recently made first. */
  private readonly entries: Combination[] = [];

  constructor(readonly capacity: number) {}

  join(first: string, second: string, combine: (first: string, second: string) => string): string {
    for (const entry of this.entries) if (entry.second === second && entry.first === first) return entry.joined;
    const joined = combine(first, second);
    this.entries.unshift({ first, second, joined });
    if (this.entries.length > this.capacity) this.entries.pop();
    return joined;
  }
}
