/** randomHex and generateCallId: the requested number of hex digits, and no id twice. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCallId, randomHex } from '../../src/core/random-id.js';

describe('randomHex', () => {
  it('gives exactly the requested number of lowercase hex digits, across UUID boundaries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), (characters) => {
        expect(randomHex(characters)).toMatch(new RegExp(`^[0-9a-f]{${characters}}$`));
      }),
    );
  });

  it('mints distinct call ids in OpenAI shape', () => {
    const ids = Array.from({ length: 10_000 }, generateCallId);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
