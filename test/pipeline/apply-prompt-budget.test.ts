/** The prompted lane's tool-metadata budget: trimmed at sentence boundaries with a warning, never dropped. */
import { describe, expect, it } from 'vitest';
import { applyPromptBudget, promptBudget, trimAtSentence } from '../../src/pipeline/apply-prompt-budget.js';

describe('trimAtSentence', () => {
  it('leaves text within the limit (whitespace collapsed)', () => {
    expect(trimAtSentence('  Short   text. ', 50)).toBe('Short text.');
  });

  it('cuts at the last sentence end that fits', () => {
    expect(trimAtSentence('First sentence here. Second one is longer than the limit allows.', 40)).toBe('First sentence here.');
  });

  it('falls back to a word boundary with an ellipsis', () => {
    const trimmed = trimAtSentence('one two three four five six seven eight nine ten', 20);
    expect(trimmed.endsWith('…')).toBe(true);
    expect(trimmed.length).toBeLessThanOrEqual(20);
    expect('one two three four five six seven eight nine ten'.startsWith(trimmed.slice(0, -1))).toBe(true);
  });
});

describe('applyPromptBudget', () => {
  it('trims long metadata with one warning per tool and keeps every tool', () => {
    const long = `${'A useful sentence. '.repeat(20)}`;
    const examples = [1, 2, 3, 4, 5].map((value) => ({ arguments: { value } }));
    const { tools, warnings } = applyPromptBudget([
      { name: 'big', description: long, whenToUse: long, examples, parameters: {} },
      { name: 'small', description: 'Fine.', parameters: {} },
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['big', 'small']);
    expect(tools[0]?.description?.length).toBeLessThanOrEqual(promptBudget.description);
    expect(tools[0]?.whenToUse?.length).toBeLessThanOrEqual(promptBudget.whenToUse);
    expect(tools[0]?.examples).toEqual(examples.slice(0, 3));
    expect(tools[1]).toEqual({ name: 'small', description: 'Fine.', parameters: {} });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'tool-prompt-trimmed' });
    expect(warnings[0]?.message).toMatch(/'big'.*description.*when_to_use.*examples/);
  });
});
