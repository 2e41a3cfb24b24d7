/** Finding the run of an upstream's tokens that spells a piece of text, by their bytes. */
import { describe, expect, it } from 'vitest';
import type { TokenLogprob } from '../../src/core/index.js';
import { tokensSpellingText } from '../../providers/tokens-spelling-text.js';

const token = (text: string, bytes: number[] | null = [...Buffer.from(text, 'utf8')]): TokenLogprob => ({
  token: text,
  logprob: -1,
  bytes,
  topLogprobs: [],
});

describe('tokensSpellingText', () => {
  it('takes the last run that spells the text', () => {
    const tokens = [token('ab'), token('c'), token('x'), token('ab'), token('c')];
    const run = tokensSpellingText(tokens, 'abc');
    expect(run).toEqual([tokens[3], tokens[4]]);
  });

  it('reads bytes, so a character split over tokens still matches', () => {
    const [first, second] = [[0xc3], [0xa9]];
    const tokens = [token('caf'), token('\ufffd', first ?? null), token('\ufffd', second ?? null)];
    expect(tokensSpellingText(tokens, 'café')).toEqual(tokens);
  });

  it('uses the text of a token without bytes', () => {
    expect(tokensSpellingText([token('Hi', null)], 'Hi')).toHaveLength(1);
  });

  it('finds nothing where no run of whole tokens spells the text', () => {
    expect(tokensSpellingText([token(' Hi')], 'Hi')).toBeUndefined();
    expect(tokensSpellingText([token('H'), token('o')], 'Hi')).toBeUndefined();
    expect(tokensSpellingText([], 'Hi')).toBeUndefined();
    expect(tokensSpellingText([token('a')], '')).toBeUndefined();
  });
});
