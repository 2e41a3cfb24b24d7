/** JSON text of long message texts, remembered by content in a small LRU. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LongTextJson } from '../../src/core/long-text-json.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts JSON.stringify calls: each one is a text the memo did not have. */
function countStringify(): { calls: () => number } {
  const spy = vi.spyOn(JSON, 'stringify');
  return { calls: () => spy.mock.calls.length };
}

describe('LongTextJson', () => {
  it('gives JSON.stringify(text) for long texts, and serialises an equal text built anew only once', () => {
    const memo = new LongTextJson({ minimumLength: 10 });
    const text = 'Tools:\n<tools>\n{"name": "f", "description": "a \\\\ b \u2028 \ud83d\ude00"}\n</tools>';
    const expected = JSON.stringify(text);
    const stringify = countStringify();
    expect(memo.of(text)?.toString('utf8')).toBe(expected);
    // An equal text built anew, as each request builds its prompt.
    expect(memo.of(`${text.slice(0, 20)}${text.slice(20)}`)?.toString('utf8')).toBe(expected);
    expect(stringify.calls()).toBe(1);
  });

  it('leaves short and oversized texts to the caller', () => {
    const memo = new LongTextJson({ minimumLength: 10, maximumLength: 20 });
    expect(memo.of('short')).toBeUndefined();
    expect(memo.of('x'.repeat(21))).toBeUndefined();
    expect(memo.of('x'.repeat(20))?.toString('utf8')).toBe(JSON.stringify('x'.repeat(20)));
  });

  it('escapes lone surrogates as JSON.stringify does', () => {
    const memo = new LongTextJson({ minimumLength: 1 });
    for (const text of ['\ud800 lone high', 'lone low \udc00', 'pair \ud83d\ude00'])
      expect(memo.of(text)?.toString('utf8')).toBe(JSON.stringify(text));
  });

  it('keeps the most recently used texts up to its capacity', () => {
    const memo = new LongTextJson({ minimumLength: 1, capacity: 2 });
    const [a, b, c] = ['a', 'b', 'c'].map((letter) => letter.repeat(50)) as [string, string, string];
    const stringify = countStringify();
    memo.of(a);
    memo.of(b);
    memo.of(a);
    memo.of(c);
    expect(stringify.calls()).toBe(3);
    // b was the least recently used: it went, a stayed.
    memo.of(a);
    expect(stringify.calls()).toBe(3);
    expect(memo.of(b)?.toString('utf8')).toBe(JSON.stringify(b));
    expect(stringify.calls()).toBe(5);
  });
});
