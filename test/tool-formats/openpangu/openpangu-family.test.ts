/** The openpangu family: openPangu's JSON call list in `<|tool_call_start|>` or `[unused11]` blocks. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('openpangu')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const named = (json: string) => `<|tool_call_start|>${json}<|tool_call_end|>`;
const reserved = (json: string) => `[unused11]${json}[unused12]`;

testFamilyContract(format);

describe('openpangu: rendering', () => {
  it('renders the tool list and the JSON list format', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}
      </tools>

      To call functions, write one JSON list of calls between <|tool_call_start|> and <|tool_call_end|>:
      <|tool_call_start|>[{"name": "function_name", "arguments": {"argument_name": "value"}}]<|tool_call_end|>
      Put several calls in the same list. When no function is needed, answer directly.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]<|tool_call_end|>
      - get_weather
      <|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}]<|tool_call_end|>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags."
    `);
  });

  it('renders history with one list per turn and tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "get_time", "arguments": {}}]<|tool_call_end|>
      [user] <tool_response>
      -3 C, snow
      </tool_response>
      <tool_response>
      Error: error: clock unavailable
      </tool_response>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('openpangu: parsing', () => {
  it('reads a list in either pair of markers, with arguments or parameters, nested and unicode', () => {
    expect(
      parse(`查一下。${named('[{"name": "get_weather", "arguments": {"city": "深圳"}}, {"name": "get_time", "parameters": {}}]')}`),
    ).toEqual([{ type: 'text', text: '查一下。' }, call('get_weather', { city: '深圳' }), call('get_time', {})]);
    expect(parse(reserved('[{"name": "create_event", "arguments": {"title": "会", "options": {"remind": true}}}]'))).toEqual([
      call('create_event', { title: '会', options: { remind: true } }),
    ]);
  });

  it('keeps the end marker inside a string, and still reads LFM2’s pythonic list', () => {
    expect(parse(reserved('[{"name": "write_file", "arguments": {"path": "a", "content": "[unused12] <|tool_call_end|>"}}]'))).toEqual([
      call('write_file', { path: 'a', content: '[unused12] <|tool_call_end|>' }),
    ]);
    expect(parse(named('[get_weather(city="Lyon")]'))).toEqual([call('get_weather', { city: 'Lyon' })]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`Time.</think>${named('[{"name": "get_time", "arguments": {}}]')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off list as unparsed and rejects unknown tools and prose', () => {
    expect(parse('[unused11][{"name": "search_web", "arguments": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'openpangu', reason: 'unclosed' },
    ]);
    expect(parse(reserved('[{"name": "delete_all_files", "arguments": {}}]'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(parse(reserved('call the weather tool'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['Pangu uses unused11 tokens.', 'a [unused1 b', '[unused12] alone'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), reserved('[{"name": "search_web", "arguments": {}}]')),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'openpangu',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${reserved('[{"name": "get_time", "arguments": {}}]')}</think>${named('[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]')}`,
    reserved('[{"name": "write_file", "arguments": {"path": "a", "content": "[unused12] </think>"}}]'),
    `${reserved('[{"name": "nope", "arguments": {}}]')}[unused11][{"name": "get_ti`,
  ],
  fragments: [
    '[unused11]',
    '[unused12]',
    '<|tool_call_start|>',
    '<|tool_call_end|>',
    '[{"name": "get_time", "arguments": {}}]',
    reserved('[{"name": "get_weather", "arguments": {"city": "Rome"}}]'),
  ],
});
