/** The functools family's results against what llama.cpp's Phi-4-mini template writes (fixture: test/fixtures/phi4-mini-rendered-prompts/). */
// The family's tool prompt and calls follow vLLM's Phi-4-mini template (functools lists), not this one; its
// results follow every Phi-4-mini template in writing each result in a turn of its own.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/index.js';
import { fidelityMessages } from '../../helpers/prompt-fidelity/fidelity-conversation.js';
import { familyUnderTest } from '../helpers/family-table.js';

const native = readFileSync(new URL('../../fixtures/phi4-mini-rendered-prompts/tool-conversation.txt', import.meta.url), 'utf8');
const { format } = familyUnderTest('functools');

const textOf = (message: Message) =>
  typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('functools: results against the Phi-4-mini template', () => {
  it('writes one user turn per result, in order, where the template writes one <|tool_response|> turn per result', () => {
    const templateResults = [...native.matchAll(/<\|tool_response\|>(.*?)<\|end\|>/g)].map((match) => JSON.parse(match[1]!) as string);
    expect(templateResults).toHaveLength(2);
    const rendered = format.renderHistory(fidelityMessages);
    const results = rendered.slice(3, 5);
    expect(results.map((message) => message.role)).toEqual(['user', 'user']);
    expect(results.map((message) => (JSON.parse(textOf(message)) as { output: string }).output)).toEqual(templateResults);
    expect(rendered[5]?.role).toBe('assistant');
  });
});
