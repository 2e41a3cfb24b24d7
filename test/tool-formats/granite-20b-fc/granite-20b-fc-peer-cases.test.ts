/** Granite-20B-FunctionCalling replies from vLLM's granite-20b-fc parser tests: every JSON type, calls one after another. */
// Source: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_granite_20b_fc_tool_parser.py (its
// ToolParserTestConfig, run by tests/tool_parsers/common_tests.py).
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools, variousDataTypes, variousDataTypesCall } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('granite-20b-fc')!;
const tools = offeredTools('test_function', 'get_weather', 'get_time', 'refresh', 'func');
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

describe('granite-20b-fc: the common suite’s replies (vLLM)', () => {
  it('keeps every JSON type of the arguments as written (test_various_data_types)', () => {
    expect(parse(`<function_call> ${variousDataTypesCall}`)).toEqual([call('test_function', variousDataTypes)]);
  });

  it('deliberately differs when no tool is offered: nothing is parsed (the roster rule)', () => {
    // vLLM's suite sends no tools and still gets the call; here with no tools the reply is passed through
    // untouched, and with tools only the offered names become calls (DESIGN.md §4.3).
    const reply = `<function_call> ${variousDataTypesCall}`;
    expect(expectChunkingInvariant(() => format.createParser([]), reply)).toEqual([{ type: 'text', text: reply }]);
  });

  it('reads calls one per line and keeps the text before them (test_parallel_tool_calls, test_surrounding_text)', () => {
    const parallel =
      '<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}\n<function_call> {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}';
    expect(parse(parallel)).toEqual([call('get_weather', { city: 'Tokyo' }), call('get_time', { timezone: 'Asia/Tokyo' })]);
    expect(parse('Let me check the weather for you.\n<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}')).toEqual([
      { type: 'text', text: 'Let me check the weather for you.\n' },
      call('get_weather', { city: 'Tokyo' }),
    ]);
  });

  it('keeps escaped strings and empty arguments (test_escaped_strings, test_empty_arguments)', () => {
    const escaped = { quoted: 'He said "hello"', path: 'C:\\Users\\file.txt', newline: 'line1\nline2', unicode: 'emoji: 🎉' };
    expect(parse(`<function_call> ${JSON.stringify({ name: 'test_function', arguments: escaped }, null, 2)}`)).toEqual([
      call('test_function', escaped),
    ]);
    expect(parse('<function_call> {"name": "refresh", "arguments": {}}')).toEqual([call('refresh', {})]);
  });

  it('handles the malformed set without a cut-off or nameless call surfacing', () => {
    expect(parse('<function_call> {"name": "func", "arguments": {')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    expect(parse('<function_call> {"name": 123}')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    // A one-call list after the marker is read leniently (DESIGN.md §4.4); vLLM's parser refuses it.
    expect(parse('<function_call> [{"name": "func", "arguments": {}}]')).toEqual([call('func', {})]);
  });
});

testChunkingInvariance({
  name: 'granite-20b-fc (various types)',
  createParser: () => format.createParser(tools),
  samples: [
    `<function_call> ${variousDataTypesCall}`,
    '<function_call> {"name": "refresh", "arguments": {}}\n<function_call> {"name": 123}',
  ],
  fragments: ['<function_call> ', variousDataTypesCall, '\n', '{"name": "func", "arguments": {'],
});
