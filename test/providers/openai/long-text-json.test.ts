/** JSON text of long message texts, remembered by content in a small LRU. */
import { describe, expect, it } from 'vitest';
import { LongTextJson } from '../../../providers/openai/long-text-json.js';

describe('LongTextJson', () => {
  it('gives JSON.stringify(text) for long texts, the same string again for an equal text', () => {
    const memo = new LongTextJson({ minimumLength: 10 });
    const text = 'Tools:\n<tools>\n{"name": "f", "description": "a \\\\ b \u2028 \ud83d\ude00"}\n</tools>';
    const json = memo.of(text);
    expect(json).toBe(JSON.stringify(text));
    // An equal text built anew (as each request builds its prompt) finds the remembered JSON.
    expect(memo.of(`${text.slice(0, 20)}${text.slice(20)}`)).toBe(json);
  });

  it('leaves short and oversized texts to the caller', () => {
    const memo = new LongTextJson({ minimumLength: 10, maximumLength: 20 });
    expect(memo.of('short')).toBeUndefined();
    expect(memo.of('x'.repeat(21))).toBeUndefined();
    expect(memo.of('x'.repeat(20))).toBe(JSON.stringify('x'.repeat(20)));
  });

  it('escapes lone surrogates as JSON.stringify does', () => {
    const memo = new LongTextJson({ minimumLength: 1 });
    for (const text of ['\ud800 lone high', 'lone low \udc00', 'pair \ud83d\ude00']) expect(memo.of(text)).toBe(JSON.stringify(text));
  });
});
