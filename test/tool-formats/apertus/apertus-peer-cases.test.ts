/** Apertus replies from vLLM's apertus parser tests: a list the reply ended inside, a missing suffix, bursts. */
// Source: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_apertus_tool_parser.py
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('apertus')!;
const tools = offeredTools('get_weather', 'get_time', 'complex_function', 'f', 't1', 't2', 't3');
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

describe('apertus: a list the reply ended inside (vLLM’s test_incomplete_tool_call)', () => {
  it('reads a call whose arguments closed, though its own brace and the list were never closed', () => {
    expect(parse('<|tools_prefix|>[{"get_weather": {"location": "London"}')).toEqual([call('get_weather', { location: 'London' })]);
  });

  it('keeps the complete calls before a cut-off one, which is reported and never read', () => {
    expect(parse('<|tools_prefix|>[{"get_weather": {"location": "London"}}, {"get_time": {"zone": {"id": 1}')).toMatchObject([
      call('get_weather', { location: 'London' }),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('never reads arguments the reply ended inside, even when a nested object closed last', () => {
    expect(parse('<|tools_prefix|>[{"complex_function": {"nested": {"inner": "value"}')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});

describe('apertus: the rest of the suite', () => {
  it('reads a list whose suffix never came (test_missing_tool_suffix, test_streaming_missing_tool_suffix)', () => {
    expect(parse('<|tools_prefix|>[{"get_weather": {"location": "San Francisco", "unit": "celsius"}}]')).toEqual([
      call('get_weather', { location: 'San Francisco', unit: 'celsius' }),
    ]);
  });

  it('reads nested arguments and three calls in one burst (test_nested_arguments, test_mtp_streaming_skip_and_catch_up)', () => {
    expect(parse('<|tools_prefix|>[{"complex_function": {"nested": {"inner": "value"}, "list": ["a", "b"]}}]<|tools_suffix|>')).toEqual([
      call('complex_function', { nested: { inner: 'value' }, list: ['a', 'b'] }),
    ]);
    expect(parse('<|tools_prefix|>[{"t1": {"a": 1}}, {"t2": {"b": 2}}, {"t3": {"c": 3}}]<|tools_suffix|>')).toEqual([
      call('t1', { a: 1 }),
      call('t2', { b: 2 }),
      call('t3', { c: 3 }),
    ]);
  });

  it('keeps the text around the call (test_vllm_streaming_character_by_character)', () => {
    expect(parse('Hi <|tools_prefix|>[{"get_weather": {"location": "London"}}]<|tools_suffix|> ')).toEqual([
      { type: 'text', text: 'Hi ' },
      call('get_weather', { location: 'London' }),
      { type: 'text', text: ' ' },
    ]);
  });
});

testChunkingInvariance({
  name: 'apertus (cut-off lists)',
  createParser: () => format.createParser(tools),
  samples: [
    '<|tools_prefix|>[{"get_weather": {"location": "London"}',
    '<|tools_prefix|>[{"get_weather": {"location": "London"}}, {"get_time": {"zone": {"id": 1}',
    'Content<|tools_prefix|>[{"f": {"a": 1}}]',
  ],
  fragments: ['<|tools_prefix|>', '<|tools_suffix|>', '[{"get_weather": {"location": "London"}', '}', ']', ', {"get_time": {}'],
});
