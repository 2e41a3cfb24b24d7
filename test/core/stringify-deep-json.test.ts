/** JSON text for parsed JSON of any depth: JSON.stringify's own text, including past the depth it can recurse to. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyDeepJson } from '../../src/core/stringify-deep-json.js';

const nestedText = (depth: number, innermost: string) => `${'{"a":['.repeat(depth)}${innermost}${']}'.repeat(depth)}`;

describe('stringifyDeepJson', () => {
  it('writes what JSON.stringify writes for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyDeepJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('writes a value nested 20,000 levels deep (JSON.stringify overflows the stack) back as the text it was parsed from', () => {
    const text = nestedText(20_000, '1,"two\\n",null,true,{"x":-5e-8,"":[]}');
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    // Compared as a boolean: a diff of two 100-kilobyte texts helps nobody.
    expect(stringifyDeepJson(value) === text).toBe(true);
  });

  it('leaves undefined members out of objects and writes them as null in arrays, as JSON.stringify does', () => {
    const deep = JSON.parse(nestedText(20_000, '0')) as { a: unknown[] };
    deep.a.push(undefined, { gone: undefined, kept: 1 });
    expect(stringifyDeepJson(deep) === `{"a":[${nestedText(19_999, '0')},null,{"kept":1}]}`).toBe(true);
  });
});
