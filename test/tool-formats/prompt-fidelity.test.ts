// Prompt fidelity: the models' own templates over the native conversation against the prompted lane's prompt.
import { describe, expect, it } from 'vitest';
import { loadChatTemplates } from '../helpers/prompt-fidelity/chat-template-catalogue.js';
import { measurePromptFidelity } from '../helpers/prompt-fidelity/measure-prompt-fidelity.js';
import { promptSimilarity } from '../helpers/prompt-fidelity/prompt-similarity.js';

/**
 * The figures reached (docs/prompt-fidelity.md), less 0.01 for rounding, for the templates the tokenizer
 * packages ship (the repository ships no third-party template; the others are measured by
 * `npm run bench:prompt-fidelity -- --templates DIR`), and for the models measured against a port of their
 * encoder: a change that moves a family's prompt away from its
 * template fails here, one that brings it closer should raise the floor.
 */
const floors: Record<string, { whole: number; callsAndResults: number }> = {
  Qwen3: { whole: 0.96, callsAndResults: 0.99 },
  'DeepSeek V3': { whole: 0.98, callsAndResults: 0.96 },
  'Llama 3.1': { whole: 0.89, callsAndResults: 0.58 },
  // Measured against the port of its encoder (deepseek-v4-encoding.ts), always available: equal byte for byte.
  'DeepSeek V4': { whole: 1, callsAndResults: 1 },
};

describe('promptSimilarity', () => {
  it('is 1 for prompts that differ only in whitespace and 0 for prompts that share no token', () => {
    expect(promptSimilarity('<a>{"x": 1}</a>', '<a>{"x":1}</a>\n')).toBe(1);
    expect(promptSimilarity('alpha beta', 'gamma delta')).toBe(0);
  });

  it('counts the longest common subsequence of tokens, so a moved section counts once', () => {
    // Tokens: a b c d against c d a b: the longest common subsequence has 2 of 4 tokens each side.
    expect(promptSimilarity('a b c d', 'c d a b')).toBe(0.5);
  });
});

describe('prompt fidelity per family', () => {
  const results = measurePromptFidelity(loadChatTemplates().entries);

  it('renders every template the packages ship, and every ported encoder, over both conversations', () => {
    expect(results.map((result) => result.entry.name).sort()).toEqual(Object.keys(floors).sort());
    for (const result of results) {
      expect(result.nativePrompt.length).toBeGreaterThan(0);
      expect(result.gatewayPrompt.length).toBeGreaterThan(0);
    }
  });

  it.each(results.map((result) => [result.entry.name, result] as const))('%s stays at least as close to its template', (name, result) => {
    const floor = floors[name]!;
    expect(result.whole).toBeGreaterThanOrEqual(floor.whole);
    expect(result.callsAndResults).toBeGreaterThanOrEqual(floor.callsAndResults);
  });
});
