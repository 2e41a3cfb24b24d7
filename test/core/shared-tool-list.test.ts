/** Shared tool lists: made only by shareToolList, deeply frozen, recognised by a mark no JSON body can carry. */
import { describe, expect, it } from 'vitest';
import { freezeDeeply } from '../../src/core/immutable-values.js';
import { isSharedToolList, shareToolList } from '../../src/core/shared-tool-list.js';

describe('shareToolList', () => {
  it('freezes the list all the way down and recognises it, and only it, as shared', () => {
    const list = [{ name: 'a', parameters: { properties: { x: { type: 'string' } } } }];
    const shared = shareToolList(list);
    expect(shared).toBe(list);
    expect(isSharedToolList(shared)).toBe(true);
    expect(Object.isFrozen(list[0]!.parameters.properties.x)).toBe(true);
    expect(() => shared.push({ name: 'b', parameters: { properties: { x: { type: 'string' } } } })).toThrow(TypeError);
    expect(shareToolList(shared)).toBe(shared);
  });

  it('does not count a copy, a frozen list, an element, a parsed look-alike or a non-array as shared', () => {
    const shared = shareToolList([{ name: 'a' }]);
    expect(isSharedToolList([...shared])).toBe(false);
    expect(isSharedToolList(shared.slice())).toBe(false);
    expect(isSharedToolList(freezeDeeply([{ name: 'a' }]))).toBe(false);
    expect(isSharedToolList(shared[0])).toBe(false);
    expect(isSharedToolList(JSON.parse(JSON.stringify(shared)) as unknown)).toBe(false);
    expect(isSharedToolList({ length: 0 })).toBe(false);
    expect(isSharedToolList(undefined)).toBe(false);
  });

  it('leaves the list looking as it did: the mark is not in its JSON, keys or equality', () => {
    const shared = shareToolList([{ name: 'a' }]);
    expect(JSON.stringify(shared)).toBe('[{"name":"a"}]');
    expect(Object.keys(shared)).toEqual(['0']);
    expect(shared).toEqual([{ name: 'a' }]);
  });
});
