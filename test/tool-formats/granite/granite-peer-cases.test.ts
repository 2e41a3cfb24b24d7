/** Granite 3 replies from vLLM's granite parser tests: arguments of every JSON type, both call markers, the malformed set. */
// Source: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_granite_tool_parser.py (its
// ToolParserTestConfig, run by tests/tool_parsers/common_tests.py).
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools, variousDataTypes, variousDataTypesCall } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('granite')!;
const tools = offeredTools('test_function', 'get_weather', 'get_time', 'refresh', 'func');
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

describe('granite: the common suite’s replies (vLLM)', () => {
  it('keeps every JSON type of the arguments as written (test_various_data_types)', () => {
    expect(parse(`<tool_call> [${variousDataTypesCall}]`)).toEqual([call('test_function', variousDataTypes)]);
    expect(parse(`<|tool_call|>[${variousDataTypesCall}]`)).toEqual([call('test_function', variousDataTypes)]);
  });

  it('deliberately differs when no tool is offered: nothing is parsed (the roster rule)', () => {
    // vLLM's suite sends no tools and still gets the call. Here only a name the request offers becomes a
    // call, and with no tools the reply is passed through untouched (DESIGN.md §4.3).
    const reply = `<tool_call> [${variousDataTypesCall}]`;
    expect(expectChunkingInvariant(() => format.createParser([]), reply)).toEqual([{ type: 'text', text: reply }]);
    expect(expectChunkingInvariant(() => format.createParser(offeredTools('get_weather')), reply)).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });

  it('reads the parallel list over several lines and empty arguments (test_parallel_tool_calls, test_empty_arguments)', () => {
    const parallel =
      '<|tool_call|> [\n  {"name": "get_weather", "arguments": {"city": "Tokyo"}},\n  {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}\n]';
    expect(parse(parallel)).toEqual([call('get_weather', { city: 'Tokyo' }), call('get_time', { timezone: 'Asia/Tokyo' })]);
    expect(parse('<|tool_call|> [{"name": "refresh", "arguments": {}}]')).toEqual([call('refresh', {})]);
  });

  it('reads the arguments-before-name order granite streams (test_streaming_parallel_calls_batched_deltas)', () => {
    const reply =
      '<|tool_call|> [{"arguments": {"city": "Tokyo"}, "name": "get_weather"}, {"arguments": {"timezone": "Asia/Tokyo"}, "name": "get_time"}]';
    expect(parse(reply)).toEqual([call('get_weather', { city: 'Tokyo' }), call('get_time', { timezone: 'Asia/Tokyo' })]);
  });

  it('handles the malformed set: a cut-off list is reported, a lone object is read, prose stays text', () => {
    expect(parse('<|tool_call|> [{"name": "func", "arguments": {')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    // Not a list, but the marker says it is a call and the object is one: lenient reading (DESIGN.md §4.4).
    expect(parse('<|tool_call|> {"name": "func", "arguments": {}}')).toEqual([call('func', {})]);
    expect(parse('Some text [{"name": "func"}]')).toEqual([{ type: 'text', text: 'Some text [{"name": "func"}]' }]);
  });
});

testChunkingInvariance({
  name: 'granite (various types)',
  createParser: () => format.createParser(tools),
  samples: [`<tool_call> [${variousDataTypesCall}]`, '<|tool_call|> [{"arguments": {"city": "Tokyo"}, "name": "get_weather"}]'],
  fragments: ['<|tool_call|>', '<tool_call> ', `[${variousDataTypesCall}]`, '{"name": "func", "arguments": {'],
});
