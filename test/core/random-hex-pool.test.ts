/** RandomHexPool: the requested number of hex digits, across refills of its pool, and no id twice. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomHexPool } from '../../src/core/random-hex-pool.js';

describe('RandomHexPool', () => {
  it('gives exactly the requested number of lowercase hex digits, across refills', () => {
    const pool = new RandomHexPool();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), (characters) => {
        expect(pool.hex(characters)).toMatch(new RegExp(`^[0-9a-f]{${characters}}$`));
      }),
    );
  });

  it('never hands out the same id twice over many refills', () => {
    const pool = new RandomHexPool();
    const ids = Array.from({ length: 50_000 }, () => pool.hex(16));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
