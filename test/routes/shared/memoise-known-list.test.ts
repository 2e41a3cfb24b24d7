/** memoiseKnownList: a known (deeply frozen) list is translated once, into a frozen result; any other list afresh. */
import { describe, expect, it } from 'vitest';
import { freezeDeeply, isDeeplyFrozen } from '../../../src/core/immutable-values.js';
import { memoiseKnownList } from '../../../routes/shared/memoise-known-list.js';

type Item = { name: string };

function countingTranslation() {
  const calls: Item[][] = [];
  const translate = memoiseKnownList((list: Item[]) => {
    calls.push(list);
    return { names: list.map((item) => item.name), notes: [{ text: `${list.length} items` }] };
  });
  return { translate, calls };
}

describe('memoiseKnownList', () => {
  it('translates a known list once and hands out the same deeply frozen result', () => {
    const { translate, calls } = countingTranslation();
    const known = freezeDeeply([{ name: 'a' }, { name: 'b' }]);
    const first = translate(known);
    expect(translate(known)).toBe(first);
    expect(calls).toHaveLength(1);
    expect(first).toEqual({ names: ['a', 'b'], notes: [{ text: '2 items' }] });
    expect(isDeeplyFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.notes[0])).toBe(true);
  });

  it('freezes each member of a record result as a root, so a part handed on alone is still known downstream', () => {
    const { translate } = countingTranslation();
    const result = translate(freezeDeeply([{ name: 'a' }]));
    expect(isDeeplyFrozen(result.names)).toBe(true);
    expect(isDeeplyFrozen(result.notes)).toBe(true);
  });

  it('freezes an array result as one root', () => {
    const translate = memoiseKnownList((list: Item[]) => list.map((item) => ({ ...item })));
    const known = freezeDeeply([{ name: 'a' }]);
    const result = translate(known);
    expect(translate(known)).toBe(result);
    expect(isDeeplyFrozen(result)).toBe(true);
    expect(Object.isFrozen(result[0])).toBe(true);
  });

  it('translates a list that is not known afresh every time, and leaves the result mutable', () => {
    const { translate, calls } = countingTranslation();
    const list = [{ name: 'a' }];
    const first = translate(list);
    const second = translate(list);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(calls).toHaveLength(2);
    expect(Object.isFrozen(first)).toBe(false);
    // A list frozen by hand is not known: only freezeDeeply vouches for the whole tree.
    translate(Object.freeze([{ name: 'a' }]) as Item[]);
    expect(calls).toHaveLength(3);
  });

  it('keeps separate results for separate known lists', () => {
    const { translate } = countingTranslation();
    const first = translate(freezeDeeply([{ name: 'a' }]));
    const second = translate(freezeDeeply([{ name: 'b' }]));
    expect(second).not.toBe(first);
    expect(second.names).toEqual(['b']);
  });

  it('does not keep a translation that throws: every request with that list gets the error', () => {
    let calls = 0;
    const translate = memoiseKnownList((_list: Item[]): Item[] => {
      calls++;
      throw new Error('duplicate');
    });
    const known = freezeDeeply([{ name: 'a' }]);
    expect(() => translate(known)).toThrow('duplicate');
    expect(() => translate(known)).toThrow('duplicate');
    expect(calls).toBe(2);
  });
});
