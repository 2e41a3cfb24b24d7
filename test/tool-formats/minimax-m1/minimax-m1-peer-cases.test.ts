/** MiniMax-M1 replies from vLLM's minimax parser tests: bad lines in a call list, and where we read more than vLLM. */
// Source: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_minimax_tool_parser.py
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('minimax-m1')!;
// vLLM's tests send no tools (its parsers call whatever is named); here the roster holds the good names.
const tools = offeredTools('valid_tool', 'another_valid_tool', 'get_current_weather', 'get_time');
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const calls = (events: readonly ParsedEvent[]) => events.filter((event) => event.type === 'tool-call');

const goodFirst = '{"name": "valid_tool", "arguments": {"city": "Seattle"}}';
const goodLast = '{"name": "another_valid_tool", "arguments": {"param": "value"}}';

describe('minimax-m1: lines of a call list that are bad (vLLM’s tests)', () => {
  it('keeps the good calls around an unreadable line and reports that line (test_extract_tool_calls_invalid_json)', () => {
    const events = parse(`<tool_calls>\n${goodFirst}\n{invalid json here}\n${goodLast}\n</tool_calls>`);
    expect(events).toMatchObject([
      call('valid_tool', { city: 'Seattle' }),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
      call('another_valid_tool', { param: 'value' }),
    ]);
  });

  it('keeps the good calls around lines without a name or arguments (test_extract_tool_calls_missing_name_or_arguments)', () => {
    const events = parse(
      `<tool_calls>\n${goodFirst}\n{"name": "missing_args"}\n{"arguments": {"city": "Portland"}}\n${goodLast}\n</tool_calls>`,
    );
    expect(calls(events)).toEqual([call('valid_tool', { city: 'Seattle' }), call('another_valid_tool', { param: 'value' })]);
    // `missing_args` is no offered tool: reported, as the line without a name is.
    expect(events.filter((event) => event.type === 'tool-call-rejected')).toMatchObject([
      { code: 'unavailable_tool' },
      { code: 'invalid_tool_syntax' },
    ]);
  });

  it('deliberately differs: a line naming an offered tool without arguments is a call with none', () => {
    // vLLM drops `{"name": "missing_args"}`. Every JSON family here reads a missing `arguments` as `{}`
    // (models leave it out for tools without parameters), and MiniMax-M1 is read the same way.
    expect(parse('<tool_calls>\n{"name": "get_time"}\n</tool_calls>')).toEqual([call('get_time', {})]);
  });

  it('deliberately differs: a call written over several lines is read (test_extract_tool_calls_multiline_json_not_supported)', () => {
    // vLLM reads line by line and returns no call here; the JSON reader does not need the line breaks.
    const multiline =
      '<tool_calls>\n{\n  "name": "get_current_weather",\n  "arguments": {\n    "city": "New York",\n    "state": "NY"\n  }\n}\n</tool_calls>';
    expect(parse(multiline)).toEqual([call('get_current_weather', { city: 'New York', state: 'NY' })]);
  });

  it('reads the incomplete-tag reply (tool_call_incomplete_tag): complete calls count without </tool_calls>', () => {
    expect(parse('<tool_calls>\n{"name": "get_current_weather", "arguments": {"city": "Boston", "state": "MA"}}')).toEqual([
      call('get_current_weather', { city: 'Boston', state: 'MA' }),
    ]);
  });

  it('keeps good lines before a cut-off one, reporting the cut-off call, which never surfaces', () => {
    expect(parse(`<tool_calls>\n${goodFirst}\n{"name": "get_time", "argu`)).toMatchObject([
      call('valid_tool', { city: 'Seattle' }),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('ignores stray text after the calls, as the JSON reading of the tag does', () => {
    expect(parse(`<tool_calls>\n${goodFirst}\n}\n</tool_calls>`)).toEqual([call('valid_tool', { city: 'Seattle' })]);
  });
});

testChunkingInvariance({
  name: 'minimax-m1 (bad lines)',
  createParser: () => format.createParser(tools),
  samples: [
    `<tool_calls>\n${goodFirst}\n{invalid json here}\n${goodLast}\n</tool_calls>`,
    `<tool_calls>\n${goodFirst}\n{"arguments": {"city": "Portland"}}\n{"name": "x"}\n</tool_calls>Done.`,
    `<tool_calls>\n${goodFirst}\n{"name": "get_time", "argu`,
  ],
  fragments: ['<tool_calls>\n', '\n</tool_calls>', `${goodFirst}\n`, '{invalid json here}\n', '{"arguments": {}}\n', '{"name": "get_ti'],
});
