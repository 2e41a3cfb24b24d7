import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { createEvent, documentedWeather, getWeather, readFile, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('hermes')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('hermes: rendering', () => {
  it('renders tools in the Qwen2.5 template style', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'required' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}
      </tools>

      For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
      <tool_call>
      {"name": <function-name>, "arguments": <args-json-object>}
      </tool_call>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <tool_call>
      {"name": "get_weather", "arguments": {"city": "Paris"}}
      </tool_call>
      - get_weather
      <tool_call>
      {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}
      </tool_call>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> XML tags. When no function is needed, answer directly.

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });

  it('renders one call', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}' })).toMatchInlineSnapshot(`
      "<tool_call>
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      </tool_call>"
    `);
  });

  it('renders history with <tool_response> user turns', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <tool_call>
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      </tool_call>
      <tool_call>
      {"name": "get_time", "arguments": {}}
      </tool_call>
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

describe('hermes: parsing', () => {
  it('reads a plain call and text before it', () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Rome' }),
    ]);
    expect(
      parse(
        'Let me check that for you.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>',
      ),
    ).toEqual([{ type: 'text', text: 'Let me check that for you.\n' }, call('get_weather', { city: 'Paris', unit: 'celsius' })]);
  });

  it('reads repeated blocks as parallel calls, in order', () => {
    const text =
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "search_web", "arguments": {"query": "Louvre hours"}}\n</tool_call>';
    expect(parse(text)).toEqual([
      call('get_weather', { city: 'Paris' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: 'Louvre hours' }),
    ]);
  });

  it('reads the <|tool_call|> variant', () => {
    expect(
      parse('<|tool_call|>\n{"name": "read_file", "arguments": {"path": "README.md", "start_line": 1, "end_line": 20}}\n</|tool_call|>'),
    ).toEqual([call('read_file', { path: 'README.md', start_line: 1, end_line: 20 })]);
  });

  it('reads reasoning and then a call (Qwen3)', () => {
    expect(
      parse(
        '<think>\nI should search for this.\n</think>\n\n<tool_call>\n{"name": "search_web", "arguments": {"query": "node 20 release date"}}\n</tool_call>',
      ),
    ).toEqual([
      { type: 'reasoning', text: 'I should search for this.' },
      { type: 'text', text: '\n\n' },
      call('search_web', { query: 'node 20 release date' }),
    ]);
    expect(
      parse('Okay, the user wants a search.\n</think>\n\n<tool_call>{"name": "search_web", "arguments": {"query": "q"}}</tool_call>', {
        startsInReasoning: true,
      }),
    ).toEqual([
      { type: 'reasoning', text: 'Okay, the user wants a search.' },
      { type: 'text', text: '\n\n' },
      call('search_web', { query: 'q' }),
    ]);
  });

  it('keeps deep nesting, braces in strings and unicode', () => {
    expect(
      parse(
        '<tool_call>\n{"name": "create_event", "arguments": {"title": "Sync {weekly} 🗓️", "attendees": ["a@x.io", "b@x.io"], "options": {"remind": true, "minutes": 10}}}\n</tool_call>',
      ),
    ).toEqual([
      call('create_event', { title: 'Sync {weekly} 🗓️', attendees: ['a@x.io', 'b@x.io'], options: { remind: true, minutes: 10 } }),
    ]);
  });

  it('repairs the usual slips: Python literals, single quotes, trailing commas, raw newlines, arguments as a string', () => {
    expect(
      parse(
        "<tool_call>\n{'name': 'create_event', 'arguments': {'title': 'A', 'options': {'remind': True, 'minutes': None,},},}\n</tool_call>",
      ),
    ).toEqual([call('create_event', { title: 'A', options: { remind: true, minutes: null } })]);
    expect(parse('<tool_call>{"name": "write_file", "arguments": {"path": "a.py", "content": "line1\nline2\n"}}</tool_call>')).toEqual([
      call('write_file', { path: 'a.py', content: 'line1\nline2\n' }),
    ]);
    expect(parse('<tool_call>{"name": "get_weather", "arguments": "{\\"city\\": \\"Kyiv\\"}"}</tool_call>')).toEqual([
      call('get_weather', { city: 'Kyiv' }),
    ]);
    expect(parse('<tool_call>{"type": "function", "function": {"name": "get_weather", "arguments": "{}"}}</tool_call>')).toEqual([
      call('get_weather', {}),
    ]);
    expect(parse('<tool_call>{"name": "get_weather", "city": "Flat"}</tool_call>')).toEqual([call('get_weather', { city: 'Flat' })]);
  });

  it("reads calls written in other families' syntax", () => {
    expect(parse('<function_call>{"name": "get_weather", "arguments": {"city": "Berlin"}}</function_call>')).toEqual([
      call('get_weather', { city: 'Berlin' }),
    ]);
    expect(parse('```tool_call\n{"name": "get_weather", "arguments": {"city": "Bern"}}\n```')).toEqual([
      call('get_weather', { city: 'Bern' }),
    ]);
    expect(parse('{"name": "get_weather", "arguments": {"city": "Bonn"}}')).toEqual([call('get_weather', { city: 'Bonn' })]);
  });

  it('rejects unknown tools and unreadable bodies, keeping their markup out of the text', () => {
    const events = parse('Sure.\n<tool_call>\n{"name": "delete_all_files", "arguments": {}}\n</tool_call>');
    expect(events[0]).toEqual({ type: 'text', text: 'Sure.\n' });
    expect(events[1]).toMatchObject({ type: 'tool-call-rejected', code: 'unavailable_tool' });
    expect(
      events
        .filter((event) => event.type === 'text')
        .map((event) => (event.type === 'text' ? event.text : ''))
        .join(''),
    ).not.toContain('delete_all_files');
    expect(parse('<tool_call>\nget weather for paris please\n</tool_call>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('handles cut-off replies', () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}')).toEqual([call('get_weather', { city: 'Lima' })]);
    expect(parse('Searching.\n<tool_call>\n{"name": "search_web", "argu')).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'hermes', text: '<tool_call>\n{"name": "search_web", "argu', reason: 'unclosed' },
    ]);
  });

  it('keeps JSON answers and prose with tags as text', () => {
    for (const text of [
      '```json\n{"name": "Alice", "age": 31}\n```',
      'If a < b and <b>bold</b> text, use <tool> carefully; 3 <| 4.',
      'Write <tool_call/> or </tool_call> in docs.',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });

  it('only makes calls to the tools of the request', () => {
    const onlyWeather = () => format.createParser([getWeather]);
    expect(expectChunkingInvariant(onlyWeather, '<tool_call>{"name": "read_file", "arguments": {"path": "x"}}</tool_call>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(
      expectChunkingInvariant(
        () => format.createParser([readFile, createEvent]),
        '<tool_call>{"name": "read_file", "arguments": {"path": "x"}}</tool_call>',
      ),
    ).toEqual([call('read_file', { path: 'x' })]);
  });
});

testChunkingInvariance({
  name: 'hermes',
  createParser: () => format.createParser(standardTools),
  samples: [
    'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\nDone.',
    '<think>\nplan\n</think>\n\n<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "</tool_call> ``` <think>"}}</tool_call>',
    '<|tool_call|><|tool_call|>{"name":"get_time","arguments":{}}</|tool_call|}',
    '<tool_call>{"name": "nope", "arguments": {}}</tool_call><tool_call>broken</tool_call><tool_call>{"name": "get_time", "argu',
  ],
  fragments: [
    '<tool_call>',
    '</tool_call>',
    '<|tool_call|>',
    '</|tool_call|>',
    '<think>\n',
    '\n</think>',
    '{"name": "get_weather", "arguments": {"city": "Rome"}}',
    '<tool_call>\n{"name": "search_web", "arguments": {"query": "a </tool_call> b"}}\n</tool_call>',
    '<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>',
    "{'name': 'get_time', 'arguments': {}}",
    '```json\n{"name": "get_time", "arguments": {}}\n```',
  ],
});
