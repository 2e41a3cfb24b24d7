import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkedEntries, type LinkedEntry } from '../../src/core/linked-entries.js';

describe('LinkedEntries', () => {
  it('keeps what a Set would, in insertion order, over any sequence of adds and removes', () => {
    // Each step adds a new item or removes one of the entries handed out so far (a removed one again, too).
    const steps = fc.array(
      fc.oneof(
        fc.constant({ add: true as const }),
        fc.nat({ max: 40 }).map((index) => ({ add: false as const, index })),
      ),
      {
        maxLength: 80,
      },
    );
    fc.assert(
      fc.property(steps, (sequence) => {
        const list = new LinkedEntries<number>();
        const reference = new Set<number>();
        const handed: LinkedEntry<number>[] = [];
        for (const step of sequence) {
          if (step.add) {
            handed.push(list.add(handed.length));
            reference.add(handed.length - 1);
          } else if (handed.length > 0) {
            const entry = handed[step.index % handed.length] as LinkedEntry<number>;
            list.remove(entry);
            reference.delete(entry.item);
          }
          expect([...list]).toEqual([...reference]);
          expect(list.size).toBe(reference.size);
        }
      }),
    );
  });

  it("lets the current entry be removed while iterating, and clears a removed entry's links", () => {
    const list = new LinkedEntries<string>();
    const entries = ['a', 'b', 'c'].map((item) => list.add(item));
    const seen: string[] = [];
    for (const entry of list.entries()) {
      seen.push(entry.item);
      list.remove(entry);
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(list.size).toBe(0);
    expect([...list]).toEqual([]);
    for (const entry of entries) expect([entry.previous, entry.next]).toEqual([undefined, undefined]);
  });
});
