/** The minicpm family: MiniCPM5's `<function name="N"><param name="K">V</param></function>` blocks. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('minicpm')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const param = (key: string, value: string) => `<param name="${key}">${value}</param>`;
const block = (name: string, ...params: string[]) => `<function name="${name}">${params.join('')}</function>`;

testFamilyContract(format);

describe('minicpm: rendering', () => {
  it('renders the tool list and the function-block format', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}
      </tools>

      For each function call, write one function block with its parameters:
      <function name="function_name"><param name="parameter_name">value</param></function>
      Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Write one block per call.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <function name="get_weather"><param name="city">Paris</param></function>
      - get_weather
      <function name="get_weather"><param name="city">Oslo</param><param name="unit">celsius</param></function>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags."
    `);
  });

  it('renders history with one block per call and tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <function name="get_weather"><param name="city">Oslo</param></function>
      <function name="get_time"></function>
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

describe('minicpm: parsing', () => {
  it('reads text then several blocks, values typed by the schema, unicode kept', () => {
    expect(
      parse(
        `查天气。\n${block('get_weather', param('city', '北京'), param('unit', 'celsius'))}\n${block('search_web', param('query', 'a "quoted" query'), param('max_results', '3'))}`,
      ),
    ).toEqual([
      { type: 'text', text: '查天气。\n' },
      call('get_weather', { city: '北京', unit: 'celsius' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: 'a "quoted" query', max_results: 3 }),
    ]);
  });

  it('reads an <arguments> wrapper, CDATA values, nested JSON, single-quoted names, and a call without parameters', () => {
    expect(
      parse(
        `<function name="create_event"><arguments>${param('title', '42')}${param('options', '{"remind": true}')}${param('attendees', '<![CDATA[["a@example.com"]]]>')}</arguments></function>`,
      ),
    ).toEqual([call('create_event', { title: '42', options: { remind: true }, attendees: ['a@example.com'] })]);
    expect(parse("<function name='get_time'></function>")).toEqual([call('get_time', {})]);
  });

  it('keeps </function> inside a value, and leaves Llama’s <function=NAME> to its own reader', () => {
    expect(parse(block('write_file', param('path', 'a.html'), param('content', '<script>function f() {}</script></function>')))).toEqual([
      call('write_file', { path: 'a.html', content: '<script>function f() {}</script></function>' }),
    ]);
    expect(parse('<function=get_time>{}</function>')).toEqual([call('get_time', {})]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`Time.</think>${block('get_time')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off block as unparsed and rejects unknown tools and malformed blocks', () => {
    expect(parse('<function name="search_web"><param name="query">ha')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'minicpm', reason: 'unclosed' },
    ]);
    expect(parse(block('delete_all_files'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse('<function name="get_weather">city=Paris</function>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['Write a function named f.', 'a <function b', '</function> alone', '<param name="x">y</param>'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), block('search_web', param('query', 'x')))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'minicpm',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${block('get_time')}</think>${block('get_weather', param('city', 'Paris'))}${block('get_time')}`,
    block('write_file', param('path', 'a'), param('content', '</function> </think>')),
    `${block('nope')}<function name="get_ti`,
  ],
  fragments: [
    '<function name="',
    '">',
    '</function>',
    '<param name="',
    '</param>',
    '<function=',
    block('get_weather', param('city', 'Rome')),
  ],
});
