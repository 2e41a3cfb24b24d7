/**
 * The tool prompt goes after the caller's system text. Repeated turns are served from a memo (whose
 * point, one string object per combination, JavaScript cannot observe): its hits and misses must give
 * the same text as building it afresh.
 */
import { RecentCombinations } from '../../src/core/recent-combinations.js';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/message.js';
import { insertToolPrompt } from '../../src/pipeline/insert-tool-prompt.js';

const user: Message = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

describe('insertToolPrompt', () => {
  it('appends the prompt to the system text, or adds a system message first', () => {
    expect(insertToolPrompt([{ role: 'system', content: 'Be terse.' }, user], 'TOOLS')).toEqual([
      { role: 'system', content: 'Be terse.\n\nTOOLS' },
      user,
    ]);
    expect(insertToolPrompt([user], 'TOOLS')).toEqual([{ role: 'system', content: 'TOOLS' }, user]);
    expect(insertToolPrompt([{ role: 'system', content: '' }, user], 'TOOLS')).toEqual([{ role: 'system', content: 'TOOLS' }, user]);
    expect(insertToolPrompt([user], '')).toEqual([user]);
  });

  it('gives the same text from its memo as built afresh, and tells different system texts apart', () => {
    const prompt = `<tools>${'x'.repeat(10_000)}</tools>`;
    const systems = new RecentCombinations(8);
    const first = insertToolPrompt([{ role: 'system', content: `Be ${'terse'}.` }, user], prompt, systems)[0];
    const second = insertToolPrompt([{ role: 'system', content: ['Be', 'terse.'].join(' ') }, user], prompt, systems)[0];
    expect(first?.content).toBe(`Be terse.\n\n${prompt}`);
    expect(second?.content).toBe(first?.content);
    const other = insertToolPrompt([{ role: 'system', content: 'Be verbose.' }, user], prompt, systems)[0];
    expect(other).toEqual({ role: 'system', content: `Be verbose.\n\n${prompt}` });
  });
});
