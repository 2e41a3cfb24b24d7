/** Deeply frozen values: frozen all the way down, recognised by identity, writes refused. */
import { describe, expect, it } from 'vitest';
import { freezeDeeply, isDeeplyFrozen } from '../../src/core/immutable-values.js';

describe('freezeDeeply', () => {
  it('freezes every object and array reachable from the value and recognises the root', () => {
    const value = { list: [{ schema: { properties: { a: { type: 'string' } } } }], name: 'x' };
    expect(freezeDeeply(value)).toBe(value);
    expect(isDeeplyFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.list[0]!.schema.properties.a)).toBe(true);
    // ES modules are strict: a write throws rather than being ignored.
    expect(() => {
      (value.list[0]!.schema.properties.a as Record<string, unknown>).type = 'number';
    }).toThrow(TypeError);
    expect(() => value.list.push({ schema: { properties: { a: { type: 'x' } } } })).toThrow(TypeError);
  });

  it('does not count an inner object, a shallowly frozen one or a primitive as deeply frozen', () => {
    const value = { inner: { a: 1 } };
    freezeDeeply(value);
    expect(isDeeplyFrozen(value.inner)).toBe(false);
    expect(isDeeplyFrozen(Object.freeze({ a: {} }))).toBe(false);
    expect(isDeeplyFrozen('text')).toBe(false);
    expect(freezeDeeply(null)).toBeNull();
  });

  it('freezes a value that holds an already deeply frozen one', () => {
    const shared = freezeDeeply({ a: [1] });
    const holder = freezeDeeply({ shared, own: { b: 2 } });
    expect(Object.isFrozen(holder.own)).toBe(true);
    expect(holder.shared).toBe(shared);
  });
});
