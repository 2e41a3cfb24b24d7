/** memoiseKnownList: a shared list is translated once (in RequestCaches.toolTranslations), into a shared result; any other list afresh. */
import { describe, expect, it } from 'vitest';
import { freezeDeeply } from '../../../src/core/immutable-values.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { isSharedToolList, shareToolList } from '../../../src/core/shared-tool-list.js';
import { memoiseKnownList } from '../../../routes/shared/memoise-known-list.js';

type Item = { name: string };
type Translated = { names: string[]; notes: { text: string }[] };

function countingTranslation() {
  const calls: Item[][] = [];
  const translate = memoiseKnownList(
    (list: Item[]): Translated => {
      calls.push(list);
      return { names: list.map((item) => item.name), notes: [{ text: `${list.length} items` }] };
    },
    (result) => freezeDeeply({ ...result, names: shareToolList(result.names) }),
  );
  return { translate, calls };
}

describe('memoiseKnownList', () => {
  it('translates a shared list once and hands out the same result, shared as `share` made it', () => {
    const { translate, calls } = countingTranslation();
    const { toolTranslations } = new RequestCaches();
    const known = shareToolList([{ name: 'a' }, { name: 'b' }]);
    const first = translate(known, toolTranslations);
    expect(translate(known, toolTranslations)).toBe(first);
    expect(calls).toHaveLength(1);
    expect(first).toEqual({ names: ['a', 'b'], notes: [{ text: '2 items' }] });
    expect(isSharedToolList(first.names)).toBe(true);
    expect(Object.isFrozen(first.notes[0])).toBe(true);
  });

  it('keeps one translation per route: two memoised translations of one list do not see each other', () => {
    const first = countingTranslation();
    const second = countingTranslation();
    const { toolTranslations } = new RequestCaches();
    const known = shareToolList([{ name: 'a' }]);
    expect(first.translate(known, toolTranslations)).not.toBe(second.translate(known, toolTranslations));
    expect([first.calls.length, second.calls.length]).toEqual([1, 1]);
  });

  it('translates afresh without caches, and a list that is not shared every time, leaving the result mutable', () => {
    const { translate, calls } = countingTranslation();
    const { toolTranslations } = new RequestCaches();
    const list = [{ name: 'a' }];
    const first = translate(list, toolTranslations);
    const second = translate(list, toolTranslations);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(Object.isFrozen(first)).toBe(false);
    // A list frozen by hand is not shared: only shareToolList vouches for the whole tree.
    translate(freezeDeeply([{ name: 'a' }]), toolTranslations);
    translate(shareToolList([{ name: 'a' }]));
    expect(calls).toHaveLength(4);
  });

  it('keeps separate results for separate shared lists, and separate caches do not share', () => {
    const { translate } = countingTranslation();
    const caches = new RequestCaches();
    const known = shareToolList([{ name: 'a' }]);
    const first = translate(known, caches.toolTranslations);
    const second = translate(shareToolList([{ name: 'b' }]), caches.toolTranslations);
    expect(second).not.toBe(first);
    expect(second.names).toEqual(['b']);
    expect(translate(known, new RequestCaches().toolTranslations)).not.toBe(first);
  });

  it('does not keep a translation that throws: every request with that list gets the error', () => {
    let calls = 0;
    const translate = memoiseKnownList(
      (_list: Item[]): Item[] => {
        calls++;
        throw new Error('duplicate');
      },
      (result) => result,
    );
    const { toolTranslations } = new RequestCaches();
    const known = shareToolList([{ name: 'a' }]);
    expect(() => translate(known, toolTranslations)).toThrow('duplicate');
    expect(() => translate(known, toolTranslations)).toThrow('duplicate');
    expect(calls).toBe(2);
  });
});
