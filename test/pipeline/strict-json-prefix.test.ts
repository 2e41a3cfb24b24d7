/** The streaming argument follower: what it passes on is always a prefix of strict JSON, for any chunking. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StrictJsonPrefix } from '../../src/pipeline/strict-json-prefix.js';
import { splitAt } from '../tool-formats/helpers/chunking-invariance.js';

/** Feeds the chunks; checks after each that what was passed on is a prefix of `expected`; returns the follower. */
function follow(text: string, cuts: number[], expected: string): StrictJsonPrefix {
  const prefix = new StrictJsonPrefix();
  let passed = '';
  for (const chunk of splitAt(text, cuts)) {
    passed += prefix.push(chunk);
    expect(expected.startsWith(passed)).toBe(true);
  }
  expect(passed).toBe(prefix.passed);
  return prefix;
}

const objects = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 5 });
const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 8 });

/** JSON with whitespace where JSON allows it (JSON.stringify's indentation), or none. */
const layout = fc.constantFrom(undefined, 1, '\t');

describe('StrictJsonPrefix', () => {
  it('passes valid JSON through unchanged, for any chunking', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), layout, cuts, (value, space, cutPoints) => {
        const text = JSON.stringify(value, null, space);
        const prefix = follow(text, cutPoints, text);
        expect(prefix.passed + (prefix.completion() ?? '<none>')).toBe(text);
        expect(prefix.altered).toBe(false);
      }),
    );
  });

  it('drops trailing commas as they stream, so the accumulated text is the valid JSON without them', () => {
    fc.assert(
      fc.property(objects, cuts, (value, cutPoints) => {
        const valid = JSON.stringify(value);
        const prefix = follow(withTrailingCommas(value), cutPoints, valid);
        expect(prefix.passed + (prefix.completion() ?? '<none>')).toBe(valid);
      }),
    );
  });

  it('reads Python-style text (single quotes, True/False/None, raw control characters) to the same value, for any chunking', () => {
    fc.assert(
      fc.property(objects, cuts, (value, cutPoints) => {
        const prefix = new StrictJsonPrefix();
        for (const chunk of splitAt(pythonStyle(value), cutPoints)) prefix.push(chunk);
        expect(JSON.parse(prefix.passed + (prefix.completion() ?? '<none>'))).toEqual(value);
      }),
    );
  });

  it('completes text that stops after a complete value with the missing closers', () => {
    expect(complete('{"city": "Paris"')).toBe('{"city": "Paris"}');
    expect(complete('{"a": [1, {"b": true}')).toBe('{"a": [1, {"b": true}]}');
    expect(complete('{"a": 1,')).toBe('{"a": 1}');
    expect(complete('{"a": 12')).toBe('{"a": 12}');
  });

  it('finds no completion where only a lenient reader could help', () => {
    for (const text of ['{"city": "Par', '{"city":', '{"city"', '{"n": 1.}', '{"a": 1} trailing', '{city: "Paris"}', '']) {
      const prefix = new StrictJsonPrefix();
      prefix.push(text);
      expect(prefix.completion(), text).toBeUndefined();
    }
  });

  it('writes single quotes, Python literals and raw control characters as JSON, token by token', () => {
    expect(complete("{'city': 'Paris', 'note': 'say \\'hi\\' \"now\"'}")).toBe('{"city": "Paris", "note": "say \'hi\' \\"now\\""}');
    expect(complete('{"ok": True, "no": False, "none": None, "text": "True"}')).toBe(
      '{"ok": true, "no": false, "none": null, "text": "True"}',
    );
    expect(complete('{"text": "line\none\ttab"}')).toBe('{"text": "line\\none\\ttab"}');
  });

  it('holds back from the first character it cannot repair, and passes nothing of it on', () => {
    const prefix = new StrictJsonPrefix();
    expect(prefix.push('{"city": "Paris", un')).toBe('{"city": "Paris", ');
    expect(prefix.push('quoted: 1}')).toBe('');
    expect(prefix.broken).toBe(true);
    expect(prefix.held).toBe('unquoted: 1}');
  });
});

function complete(text: string): string | undefined {
  const prefix = new StrictJsonPrefix();
  prefix.push(text);
  const completion = prefix.completion();
  return completion === undefined ? undefined : prefix.passed + completion;
}

/** JSON with a comma after the last member of every non-empty array and object. */
function withTrailingCommas(value: unknown): string {
  if (Array.isArray(value)) return value.length ? `[${value.map((item) => `${withTrailingCommas(item)},`).join('')}]` : '[]';
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}:${withTrailingCommas(member)},`);
    return members.length ? `{${members.join('')}}` : '{}';
  }
  return JSON.stringify(value);
}

/** The value as a Python literal: single-quoted strings with raw control characters, True/False/None. */
function pythonStyle(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  // JSON.stringify writes -0 as 0; Python writes -0.0, which JSON reads back as -0.
  if (Object.is(value, -0)) return '-0.0';
  if (Array.isArray(value)) return `[${value.map(pythonStyle).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, member]) => `${pythonStyle(key)}: ${pythonStyle(member)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}
