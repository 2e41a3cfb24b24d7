// Which other families' markers a parser watches: markup and special tokens yes, word-like markers no.
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { isDistinctiveMarker, visibleMarkers } from '../../../tool-formats/shared/fallback-markers.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { getWeather } from '../helpers/tools.js';

const registry = createToolFormatRegistry();

function textOf(family: string, reply: string): { text: string; calls: number } {
  const format = registry.get(family);
  if (format === undefined) throw new Error(`no family ${family}`);
  const events = expectChunkingInvariant(() => format.createParser([getWeather]), reply);
  return {
    text: events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join(''),
    calls: events.filter((event) => event.type !== 'text').length,
  };
}

describe('isDistinctiveMarker', () => {
  it('takes markup and special tokens', () => {
    for (const marker of [
      '<tool_call>',
      '<|python_tag|>',
      '<｜DSML｜function_calls>',
      '[TOOL_CALLS]',
      '```json',
      ']<]minimax[>[<tool_call>',
      '◁think▷',
    ])
      expect(isDistinctiveMarker(marker), marker).toBe(true);
  });

  it('leaves out markers that open like words of prose', () => {
    for (const marker of ['functools[', 'Action: ```json', 'function call<|role_sep|>', '>>>', '**Tool Call:**\n```json'])
      expect(isDistinctiveMarker(marker), marker).toBe(false);
  });

  it("keeps all of the own family's markers", () => {
    expect(visibleMarkers(['functools[', '<tool_call>'], true)).toEqual(['functools[', '<tool_call>']);
    expect(visibleMarkers(['functools[', '<tool_call>'], false)).toEqual(['<tool_call>']);
  });
});

// (Command-R's `Action: ```json` and RWKV's `**Tool Call:**` fences hold a ```json fence, which every family reads.)
describe("another family's word-like marker in prose", () => {
  const replies: [owner: string, reply: string][] = [
    ['functools', 'Use functools[{"name": "get_weather", "arguments": {"city": "Oslo"}}] to cache it.'],
    ['functionary-v32', 'In Python, >>>get_weather\n{"city": "Oslo"} is the prompt.'],
    ['gigachat', 'a function call<|role_sep|> b'],
  ];

  it.each(replies)('is text for hermes, a call for %s', (owner, reply) => {
    expect(textOf('hermes', reply)).toEqual({ text: reply, calls: 0 });
    expect(textOf(owner, reply).calls).toBeGreaterThan(0);
  });

  it("still finds another family's special-token call", () => {
    expect(textOf('functools', 'ok <tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>').calls).toBe(1);
  });
});
