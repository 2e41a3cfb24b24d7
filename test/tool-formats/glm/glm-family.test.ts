import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('glm')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const parseWith = (tools: ToolDefinition[], text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
/** A GLM-4.5 call (one tag per line); `compact` writes GLM-4.7's form without newlines. */
const glmCall = (name: string, pairs: Record<string, string>, compact = false) => {
  const newline = compact ? '' : '\n';
  const body = Object.entries(pairs)
    .map(([key, value]) => `<arg_key>${key}</arg_key>${newline}<arg_value>${value}</arg_value>${newline}`)
    .join('');
  return `<tool_call>${name}${newline}${body}</tool_call>`;
};

const typed: ToolDefinition = {
  name: 'typed',
  description: 'Takes one argument of every type.',
  parameters: {
    type: 'object',
    properties: {
      code: { type: 'string' },
      count: { type: 'integer' },
      ratio: { type: 'number' },
      enabled: { type: 'boolean' },
      nothing: { type: 'null' },
      tags: { type: 'array', items: { type: 'string' } },
      config: { type: 'object' },
    },
  },
};

testFamilyContract(format);

describe('glm: rendering', () => {
  it('renders tools as the GLM-4.5 chat template does', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'required' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}
      </tools>

      For each function call, output the function name and arguments within the following XML format:
      <tool_call>{function-name}
      <arg_key>{arg-key-1}</arg_key>
      <arg_value>{arg-value-1}</arg_value>
      <arg_key>{arg-key-2}</arg_key>
      <arg_value>{arg-value-2}</arg_value>
      ...
      </tool_call>
      Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <tool_call>get_weather
      <arg_key>city</arg_key>
      <arg_value>Paris</arg_value>
      </tool_call>
      - get_weather
      <tool_call>get_weather
      <arg_key>city</arg_key>
      <arg_value>Oslo</arg_value>
      <arg_key>unit</arg_key>
      <arg_value>celsius</arg_value>
      </tool_call>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> XML tags. When no function is needed, answer directly.

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });

  it('renders one call in the GLM-4.5 form: strings as they are, other values as JSON', () => {
    expect(
      format.renderCall({
        name: 'create_event',
        arguments: '{"title":"Sync","attendees":["a@x.io"],"options":{"remind":true,"minutes":10}}',
      }),
    ).toMatchInlineSnapshot(`
      "<tool_call>create_event
      <arg_key>title</arg_key>
      <arg_value>Sync</arg_value>
      <arg_key>attendees</arg_key>
      <arg_value>["a@x.io"]</arg_value>
      <arg_key>options</arg_key>
      <arg_value>{"remind": true, "minutes": 10}</arg_value>
      </tool_call>"
    `);
    expect(format.renderCall({ name: 'get_time', arguments: '{}' })).toBe('<tool_call>get_time\n</tool_call>');
  });

  it('renders history with <tool_response> user turns', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <tool_call>get_weather
      <arg_key>city</arg_key>
      <arg_value>Oslo</arg_value>
      </tool_call>
      <tool_call>get_time
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

describe('glm: parsing', () => {
  it('reads GLM-4.5 calls (conformance glm45-arg-key-value) and GLM-4.7 calls without newlines', () => {
    const expected = [call('get_weather', { city: 'Beijing', unit: 'celsius' })];
    expect(parse(glmCall('get_weather', { city: 'Beijing', unit: 'celsius' }))).toEqual(expected);
    expect(parse(glmCall('get_weather', { city: 'Beijing', unit: 'celsius' }, true))).toEqual(expected);
    // AbstractCore #72, which AbstractCore itself did not read.
    expect(parse('<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Paris' }),
    ]);
    expect(parse('<tool_call>get_time\n</tool_call>')).toEqual([call('get_time', {})]);
  });

  it('keeps string values raw and reads the others as JSON, by the schema', () => {
    const reply = glmCall('typed', {
      code: '5123123',
      count: '7',
      ratio: '-0.5',
      enabled: 'false',
      nothing: 'null',
      tags: '["a", "b"]',
      config: '{"depth": 2, "fast": true}',
      unknown: '[1, 2]',
    });
    expect(parseWith([typed], reply)).toEqual([
      call('typed', {
        code: '5123123',
        count: 7,
        ratio: -0.5,
        enabled: false,
        nothing: null,
        tags: ['a', 'b'],
        config: { depth: 2, fast: true },
        unknown: [1, 2],
      }),
    ]);
    // Whitespace is part of a string value; JSON values may be padded.
    expect(parseWith([typed], glmCall('typed', { code: '  two spaces\n', count: ' 3 ', config: "{'python': True}" }))).toEqual([
      call('typed', { code: '  two spaces\n', count: 3, config: { python: true } }),
    ]);
  });

  it('reads repeated blocks as parallel calls, in order, with text and reasoning around them', () => {
    const reply = `<think>The user wants the weather in Beijing and Shanghai.</think>\nI will check both.\n${glmCall('get_weather', { city: 'Beijing' })}\n${glmCall('get_weather', { city: 'Shanghai' })}`;
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: 'The user wants the weather in Beijing and Shanghai.' },
      { type: 'text', text: '\nI will check both.\n' },
      call('get_weather', { city: 'Beijing' }),
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Shanghai' }),
    ]);
    expect(parse(`${glmCall('search_web', { query: 'Zürich 天气 🌧️', max_results: '5' })}\nDone.`)).toEqual([
      call('search_web', { query: 'Zürich 天气 🌧️', max_results: 5 }),
      { type: 'text', text: '\nDone.' },
    ]);
    // A forgotten </tool_call> between two calls.
    expect(parse(`${glmCall('get_weather', { city: 'Oslo' }).replace('</tool_call>', '')}${glmCall('get_time', {})}`)).toEqual([
      call('get_weather', { city: 'Oslo' }),
      call('get_time', {}),
    ]);
  });

  it('keeps multi-line code with indentation and markers in string values', () => {
    const content = 'def main():\n    print("</tool_call>")\n\n\treturn "<tool_call>x"\n';
    expect(parse(`${glmCall('write_file', { path: 'main.py', content })}after`)).toEqual([
      call('write_file', { path: 'main.py', content }),
      { type: 'text', text: 'after' },
    ]);
  });

  it('strips the functions. namespace and rejects tools that were not offered, keeping the markup out of the text', () => {
    expect(parse(glmCall('functions.get_weather', { city: 'Rome' }))).toEqual([call('get_weather', { city: 'Rome' })]);
    const events = parseWith([getWeather], `Sure.\n${glmCall('delete_all_files', { path: '/' })}`);
    expect(events).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(events)).not.toMatch(/delete_all_files|arg_/);
  });

  it('rejects unreadable blocks as invalid_tool_syntax', () => {
    const malformed = [
      '<tool_call>\nget weather for paris please\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city</arg_key>\nParis\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Paris</arg_value>\nand more\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city\n</tool_call>',
    ];
    for (const reply of malformed)
      expect(parse(reply)).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax', text: reply }]);
  });

  it('never surfaces a cut-off call', () => {
    const cutOffs = [
      '<tool_call>get_weather\n<arg_key>ci',
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Par',
      // Nothing marks the last pair: more may have been coming.
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n',
      '<tool_call>get_wea',
      // A value holding </tool_call>, then the reply stops inside it.
      '<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>x = "</tool_call>"',
    ];
    for (const reply of cutOffs)
      expect(parse(`Checking.\n${reply}`)).toEqual([
        { type: 'text', text: 'Checking.\n' },
        { type: 'tool-call-unparsed', format: 'glm', text: reply, reason: 'unclosed' },
      ]);
  });

  it("reads the other families' syntax under the same tag and keeps JSON answers and prose as text", () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Kyiv"}}\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Kyiv' }),
    ]);
    expect(parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nKyiv\n</parameter>\n</function>\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Kyiv' }),
    ]);
    for (const text of ['```json\n{"name": "Alice", "age": 31}\n```', 'Write <arg_key>k</arg_key> pairs; 3 <| 4.'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
  });
});

testChunkingInvariance({
  name: 'glm',
  createParser: () => format.createParser(standardTools),
  samples: [
    `I will check.\n${glmCall('get_weather', { city: 'Beijing', unit: 'celsius' })}\nDone.`,
    `<think>plan</think>${glmCall('write_file', { path: 'a', content: '</tool_call> <think> <arg_value>' }, true)}`,
    `${glmCall('nope', {})}<tool_call>broken words here</tool_call>${glmCall('get_time', {})}<tool_call>read_file<arg_key>pa`,
  ],
  fragments: [
    '<tool_call>',
    '</tool_call>',
    '<tool_call>get_weather\n',
    '<arg_key>city</arg_key>',
    '<arg_value>Rome</arg_value>',
    '<arg_value>',
    '</arg_value>',
    '<think>',
    '</think>',
    glmCall('search_web', { query: 'a </tool_call> b', max_results: '2' }),
    glmCall('get_time', {}, true),
    '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
  ],
});
