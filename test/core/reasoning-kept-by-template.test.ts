/** Which earlier turns' reasoning each family's chat template keeps (templates under llama.cpp's models/templates/). */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/message.js';
import { reasoningKeptAfter, withReasoningTheTemplateKeeps } from '../../src/core/reasoning-kept-by-template.js';

const call = { type: 'tool-call' as const, id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' };
/** Question, call, result, question, call, result: a task interrupted by a new question, no answer between. */
const interrupted: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  { role: 'assistant', content: [{ type: 'reasoning', text: 'First Paris.' }, call] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', output: '21°C' }] },
  { role: 'user', content: [{ type: 'text', text: 'And Rome too.' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Now Rome.' },
      { ...call, id: 'c2' },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', output: '24°C' }] },
];

describe('reasoningKeptAfter', () => {
  it.each(['hermes', 'qwen3-coder', 'glm', 'minimax-m2', 'deepseek-v32'])('%s: the turns after the last user message', (family) => {
    expect(reasoningKeptAfter(interrupted, family)).toBe(3);
  });

  // Kimi K2 Thinking splits at the last assistant message without calls; gpt-oss keeps a call turn's thinking until a final message.
  it.each(['harmony', 'kimi-k2'])('%s: the turns after the last answer (every turn here)', (family) => {
    expect(reasoningKeptAfter(interrupted, family)).toBe(-1);
    const answered: Message[] = [...interrupted, { role: 'assistant', content: [{ type: 'text', text: '21 and 24.' }] }];
    expect(reasoningKeptAfter(answered, family)).toBe(6);
  });

  // GLM-4.7/5's `clear_thinking: false` and Qwen3.6's / Kimi K2.6's `preserve_thinking: true` keep every turn's.
  it.each([
    ['glm', { clear_thinking: false }],
    ['hermes', { preserve_thinking: true }],
    ['kimi-k2', { preserve_thinking: true }],
  ])('%s with %o: every turn', (family, kwargs) => {
    expect(reasoningKeptAfter(interrupted, family, kwargs)).toBe(-1);
  });

  it('kwargs keep nothing for a family whose template shows no earlier reasoning', () => {
    expect(reasoningKeptAfter(interrupted, 'llama3', { preserve_thinking: true })).toBeUndefined();
  });

  // DeepSeek V3.1's template drops earlier reasoning; Llama 3's shows none.
  it.each(['deepseek-v31', 'llama3', 'generic-json'])('%s: none', (family) => {
    expect(reasoningKeptAfter(interrupted, family)).toBeUndefined();
  });
});

describe('withReasoningTheTemplateKeeps (the prompted text history, results as user turns)', () => {
  const reasoningOf = (messages: Message[] | undefined) =>
    messages?.map((message) => (message.role === 'assistant' ? message.content.filter((part) => part.type === 'reasoning') : []));

  it('Qwen3 (skips <tool_response> turns): the reasoning before the last query is taken out, the rest kept', () => {
    expect(reasoningOf(withReasoningTheTemplateKeeps(interrupted, 'hermes'))).toEqual([
      [],
      [],
      [],
      [],
      [{ type: 'reasoning', text: 'Now Rome.' }],
      [],
    ]);
  });

  it('a template keeping turns after the last user message: nothing, since the results become that message', () => {
    expect(withReasoningTheTemplateKeeps(interrupted, 'glm')).toBeUndefined();
  });

  it('GLM with clear_thinking false: every turn kept, whatever the results become', () => {
    expect(withReasoningTheTemplateKeeps(interrupted, 'glm', { clear_thinking: false })).toEqual(interrupted);
  });

  it('a family keeping none: nothing', () => {
    expect(withReasoningTheTemplateKeeps(interrupted, 'llama3')).toBeUndefined();
  });
});
