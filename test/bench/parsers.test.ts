// The parser bench's family filter: which rows `--family` / PARSER_BENCH_FAMILIES select.
import { describe, expect, it } from 'vitest';
import { familyFilter } from '../../bench/parsers.js';

describe('familyFilter', () => {
  it('reads --family with its value as the next argument', () => {
    expect(familyFilter(['--family', 'hermes, step3'], {})).toEqual(['hermes', 'step3']);
  });

  it('reads --family=a,b', () => {
    expect(familyFilter(['--family=kimi-k3,,xlam'], {})).toEqual(['kimi-k3', 'xlam']);
  });

  it('falls back to PARSER_BENCH_FAMILIES, and the flag wins over it', () => {
    expect(familyFilter([], { PARSER_BENCH_FAMILIES: 'cohere' })).toEqual(['cohere']);
    expect(familyFilter(['--family', 'jamba'], { PARSER_BENCH_FAMILIES: 'cohere' })).toEqual(['jamba']);
  });

  it('selects every row when nothing is given', () => {
    expect(familyFilter([], {})).toEqual([]);
  });
});
