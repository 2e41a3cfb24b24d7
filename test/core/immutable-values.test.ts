/** Deeply frozen values: frozen all the way down, writes refused. */
import { describe, expect, it } from 'vitest';
import { freezeDeeply } from '../../src/core/immutable-values.js';

describe('freezeDeeply', () => {
  it('freezes every object and array reachable from the value', () => {
    const value = { list: [{ schema: { properties: { a: { type: 'string' } } } }], name: 'x' };
    expect(freezeDeeply(value)).toBe(value);
    expect(Object.isFrozen(value.list[0]!.schema.properties.a)).toBe(true);
    // ES modules are strict: a write throws rather than being ignored.
    expect(() => {
      (value.list[0]!.schema.properties.a as Record<string, unknown>).type = 'number';
    }).toThrow(TypeError);
    expect(() => value.list.push({ schema: { properties: { a: { type: 'x' } } } })).toThrow(TypeError);
    expect(freezeDeeply(null)).toBeNull();
  });

  it('enters an object frozen only shallowly, so nothing under a frozen value stays writable', () => {
    const inner = { b: 2 };
    const holder = freezeDeeply({ shallow: Object.freeze({ inner }), own: { c: 3 } });
    expect(Object.isFrozen(holder.own)).toBe(true);
    expect(Object.isFrozen(inner)).toBe(true);
  });
});
