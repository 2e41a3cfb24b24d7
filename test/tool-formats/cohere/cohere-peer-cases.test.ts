/** Cohere replies from vLLM's cohere_command parser tests: citation tags in text and reasoning, actions with ids. */
// Source: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_cohere_command_tool_parser.py
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';

const registry = createToolFormatRegistry();
const format = registry.get('cohere')!;
const tools = offeredTools('foo', 'bar');
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(tools, options), text);

/** cmd3-citations_no_tool_calls and cmd4-citations_no_tool_calls. */
const citations =
  '<|START_THINKING|>This is a rainbow <co>emoji: 🌈</co: 0:[1]><|END_THINKING|>\n<|START_RESPONSE|>foo <co>bar</co: 0:[1,2],1:[3,4]><|END_RESPONSE|>';

describe('cohere: citation tags (vLLM’s cmd3/cmd4-citations_no_tool_calls)', () => {
  it('drops the tags from reasoning and text and keeps the cited words', () => {
    // vLLM's content is "foo bar": the newline between <|END_THINKING|> and <|START_RESPONSE|> is kept
    // here, since whitespace is content (DESIGN.md §4.1).
    expect(parse(citations)).toEqual([
      { type: 'reasoning', text: 'This is a rainbow emoji: 🌈' },
      { type: 'text', text: '\nfoo bar' },
    ]);
  });

  it('drops them in a reply that begins inside the reasoning the template opened', () => {
    expect(parse('Cite <co>it</co: 0:[0]>.<|END_THINKING|><|START_RESPONSE|>It <co>is</co: 0:[0]>.', { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Cite it.' },
      { type: 'text', text: 'It is.' },
    ]);
  });

  it('drops Command R+’s numbered tags too, and keeps look-alikes and half tags as text', () => {
    expect(parse('A <co: 0>fact</co: 0>.')).toEqual([{ type: 'text', text: 'A fact.' }]);
    for (const text of ['Use <code>x</code> and <col>.', 'a <co: x> b', 'ends with <co', 'ends with </co: 0:[1'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  it('leaves the tags to other families’ parsers, and to a request without tools (nothing is parsed then)', () => {
    const text = 'foo <co>bar</co: 0:[1]>';
    expect(expectChunkingInvariant(() => registry.get('hermes')!.createParser(tools), text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([]), text)).toEqual([{ type: 'text', text }]);
  });
});

describe('cohere: actions (vLLM’s cmd3/cmd4 single and multiple tool calls)', () => {
  it('reads two calls with their tool_call_id after reasoning', () => {
    const reply =
      '<|START_THINKING|>first I think about foo<|END_THINKING|><|START_ACTION|>\n[\n    {"tool_call_id": "0", "tool_name": "foo", "parameters": {"query": "query1"}},\n    {"tool_call_id": "1", "tool_name": "bar", "parameters": {"x": 42}}\n]\n<|END_ACTION|>';
    expect(parse(reply)).toEqual<ParsedEvent[]>([
      { type: 'reasoning', text: 'first I think about foo' },
      { type: 'tool-call', name: 'foo', arguments: '{"query":"query1"}', id: '0' },
      { type: 'tool-call', name: 'bar', arguments: '{"x":42}', id: '1' },
    ]);
  });
});

testChunkingInvariance({
  name: 'cohere (citations)',
  createParser: () => format.createParser(tools),
  samples: [citations, 'a <co: 0>b</co: 0> <co <code> </co: 1:[2]>c'],
  fragments: [
    '<co>',
    '</co: 0:[1,2],1:[3,4]>',
    '<co: 0>',
    '</co: 0>',
    '<co',
    '</co: ',
    '<|START_THINKING|>',
    '<|END_THINKING|>',
    '<|START_ACTION|>[{"tool_name": "foo", "parameters": {}}]<|END_ACTION|>',
  ],
});
