/** With special tokens kept, replies end in end-of-turn tokens: each family's parser removes them, for any split. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, parseChunks, parseWhole, splitAt } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const weatherCall: ParsedEvent = { type: 'tool-call', name: 'get_weather', arguments: '{"city":"Paris"}' };

/** Replies as a server that keeps special tokens returns them: a call, then the turn's end. */
const replies: { family: string; reply: string; endOfTurn: string }[] = [
  {
    family: 'hermes',
    reply: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    endOfTurn: '<|im_end|>',
  },
  {
    family: 'qwen3-coder',
    reply: '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>',
    endOfTurn: '<|im_end|>',
  },
  { family: 'llama3', reply: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}', endOfTurn: '<|eom_id|>' },
  { family: 'llama3', reply: '{"name": "get_weather", "parameters": {"city": "Paris"}}', endOfTurn: '<|eot_id|>' },
  {
    family: 'harmony',
    reply: '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}',
    endOfTurn: '<|call|>',
  },
  { family: 'mistral', reply: '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', endOfTurn: '</s>' },
  { family: 'mistral', reply: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]', endOfTurn: '</s>' },
  {
    family: 'deepseek',
    reply:
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    endOfTurn: '<｜end▁of▁sentence｜>',
  },
  {
    family: 'kimi-k2',
    reply:
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    endOfTurn: '<|im_end|>',
  },
  { family: 'granite', reply: '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]', endOfTurn: '<|end_of_text|>' },
  {
    family: 'internlm',
    reply: '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Paris"}}<|action_end|>',
    endOfTurn: '<|im_end|>',
  },
  {
    family: 'glm',
    reply: '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>',
    endOfTurn: '<|user|>',
  },
];

describe('end-of-turn tokens kept by the server', () => {
  it.each(replies)('$family: a call followed by $endOfTurn is the call alone', ({ family, reply, endOfTurn }) => {
    const format = registry.get(family)!;
    const events = expectChunkingInvariant(() => format.createParser(standardTools), reply + endOfTurn);
    expect(events.filter((event) => event.type !== 'text' || event.text.trim() !== '')).toEqual([
      { ...weatherCall, ...(family === 'kimi-k2' ? { id: 'functions.get_weather:0' } : {}) },
    ]);
  });

  it.each(replies)('$family: an answer followed by $endOfTurn is the answer alone', ({ family, endOfTurn }) => {
    const format = registry.get(family)!;
    expect(expectChunkingInvariant(() => format.createParser(standardTools), `It is sunny in Paris.${endOfTurn}`)).toEqual([
      { type: 'text', text: 'It is sunny in Paris.' },
    ]);
  });

  it('removes the end-of-turn token from random prose, whatever the split (fast-check)', () => {
    const prose = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.', ',', '\n', 'é', '日', '<', '>', '|', '/'), maxLength: 30 });
    fc.assert(
      fc.property(
        fc.constantFrom(...replies),
        prose,
        fc.array(fc.nat({ max: 200 }), { maxLength: 8 }),
        ({ family, endOfTurn }, text, cuts) => {
          const factory = () => registry.get(family)!.createParser(standardTools);
          const withEnd = text + endOfTurn;
          expect(parseChunks(factory, splitAt(withEnd, cuts))).toEqual(parseWhole(factory, text));
        },
      ),
      { numRuns: 300 },
    );
  });
});
