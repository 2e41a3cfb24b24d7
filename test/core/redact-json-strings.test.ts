/** redactJsonStrings: every string of a JSON value (keys too) redacted one by one, the same value back when none changed. */
import { describe, expect, it } from 'vitest';
import { redactJsonStrings } from '../../src/core/redact-json-strings.js';

const redact = (text: string) => text.replaceAll('secret', '***');

describe('redactJsonStrings', () => {
  it('redacts strings at any depth, in arrays and in keys', () => {
    const value = { a: ['x secret', { secret: 'y', n: 1, ok: true, none: null }], b: 'plain' };
    expect(redactJsonStrings(value, redact)).toEqual({ a: ['x ***', { '***': 'y', n: 1, ok: true, none: null }], b: 'plain' });
  });

  it('returns the very same value when no string changes, and strings and nullish values as such', () => {
    const value = { a: ['x', { b: 'y' }] };
    expect(redactJsonStrings(value, redact)).toBe(value);
    expect(redactJsonStrings('a secret', redact)).toBe('a ***');
    expect(redactJsonStrings(null, redact)).toBeNull();
    expect(redactJsonStrings(undefined, redact)).toBeUndefined();
  });

  it('keeps what JSON keeps: toJSON is used, undefined properties are dropped', () => {
    const value = { when: new Date('2026-01-01T00:00:00.000Z'), gone: undefined, note: 'secret' };
    expect(redactJsonStrings(value, redact)).toEqual({ when: '2026-01-01T00:00:00.000Z', note: '***' });
  });

  it('gives undefined for what cannot be serialised (a cycle, a BigInt) rather than throwing', () => {
    const cyclic: Record<string, unknown> = { a: 'secret' };
    cyclic.self = cyclic;
    expect(redactJsonStrings(cyclic, redact)).toBeUndefined();
    expect(redactJsonStrings({ big: 1n }, redact)).toBeUndefined();
  });
});
