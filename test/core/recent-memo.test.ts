/** RecentMemo: computes a key's value once, and forgets the least recently used key beyond its capacity. */
import { describe, expect, it } from 'vitest';
import { RecentMemo } from '../../src/core/recent-memo.js';

describe('RecentMemo', () => {
  it('computes once per key and evicts the least recently used', () => {
    const memo = new RecentMemo<string, string>(2);
    const computed: string[] = [];
    const get = (key: string) => memo.get(key, () => (computed.push(key), key.toUpperCase()));
    expect(get('a')).toBe('A');
    get('b');
    get('a');
    get('c');
    expect(memo.size).toBe(2);
    get('a');
    expect(computed).toEqual(['a', 'b', 'c']);
    get('b');
    expect(computed).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps a key used since it came in over one that was not, and keeps nothing at capacity 0', () => {
    const memo = new RecentMemo<string, string>(3);
    const computed: string[] = [];
    const get = (key: string) => memo.get(key, () => (computed.push(key), key));
    for (const key of ['a', 'b', 'c', 'a', 'c', 'd', 'a', 'c', 'b']) get(key);
    // d evicted b (the one unused), and b evicted d (a and c were used again since).
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'b']);
    expect(memo.size).toBe(3);
    const none = new RecentMemo<string, string>(0);
    none.get('x', () => 'x');
    expect(none.size).toBe(0);
  });

  it('keeps nothing when the computation throws', () => {
    const memo = new RecentMemo<string, number>(4);
    expect(() =>
      memo.get('x', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(memo.size).toBe(0);
  });
});
