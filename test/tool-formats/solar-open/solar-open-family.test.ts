/** The solar-open family: Solar Open 2's `<|tool_call:start|>` blocks with `<|tool_arg:…|>` pairs. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('solar-open')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const argument = (key: string, value: string) => `<|tool_arg:start|>${key}<|tool_arg:value|>${value}<|tool_arg:end|>\n`;
const block = (name: string, ...pairs: string[]) => `<|tool_call:start|>${name}\n${pairs.join('')}<|tool_call:end|>`;

testFamilyContract(format);

describe('solar-open: rendering', () => {
  it('renders the tool list and the block format', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}
      </tools>

      For each function call, write the function name and its arguments in the following format:
      <|tool_call:start|>{function-name}
      <|tool_arg:start|>{arg-key-1}<|tool_arg:value|>{arg-value-1}<|tool_arg:end|>
      <|tool_arg:start|>{arg-key-2}<|tool_arg:value|>{arg-value-2}<|tool_arg:end|>
      <|tool_call:end|>
      Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Write one block per call; several blocks may follow one another.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|tool_call:start|>get_weather
      <|tool_arg:start|>city<|tool_arg:value|>Paris<|tool_arg:end|>
      <|tool_call:end|>
      - get_weather
      <|tool_call:start|>get_weather
      <|tool_arg:start|>city<|tool_arg:value|>Oslo<|tool_arg:end|>
      <|tool_arg:start|>unit<|tool_arg:value|>celsius<|tool_arg:end|>
      <|tool_call:end|>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags."
    `);
  });

  it('renders history with one block per call and tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|tool_call:start|>get_weather
      <|tool_arg:start|>city<|tool_arg:value|>Oslo<|tool_arg:end|>
      <|tool_call:end|>
      <|tool_call:start|>get_time
      <|tool_call:end|>
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

describe('solar-open: parsing', () => {
  it('reads text then several calls, values typed by the schema', () => {
    expect(
      parse(
        `Checking both.\n${block('get_weather', argument('city', 'Seoul'), argument('unit', 'celsius'))}\n${block('search_web', argument('query', '부산 맛집'), argument('max_results', '5'))}`,
      ),
    ).toEqual([
      { type: 'text', text: 'Checking both.\n' },
      call('get_weather', { city: 'Seoul', unit: 'celsius' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: '부산 맛집', max_results: 5 }),
    ]);
  });

  it('reads a call without arguments, nested JSON values, and a string that looks like a number', () => {
    expect(parse(block('get_time'))).toEqual([call('get_time', {})]);
    expect(
      parse(
        block(
          'create_event',
          argument('title', '42'),
          argument('attendees', '["a@example.com", "b@example.com"]'),
          argument('options', '{"remind": true}'),
        ),
      ),
    ).toEqual([call('create_event', { title: '42', attendees: ['a@example.com', 'b@example.com'], options: { remind: true } })]);
  });

  it('keeps the call end token inside a value', () => {
    expect(parse(block('write_file', argument('path', 'a.md'), argument('content', 'say <|tool_call:end|> here')))).toEqual([
      call('write_file', { path: 'a.md', content: 'say <|tool_call:end|> here' }),
    ]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`<think>Weather.</think>${block('get_weather', argument('city', 'Busan'))}`)).toEqual([
      { type: 'reasoning', text: 'Weather.' },
      call('get_weather', { city: 'Busan' }),
    ]);
    expect(parse(`Time.</think>${block('get_time')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed blocks', () => {
    expect(parse('<|tool_call:start|>search_web\n<|tool_arg:start|>query<|tool_arg:value|>ha')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'solar-open', reason: 'unclosed' },
    ]);
    expect(parse(block('delete_all_files'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse('<|tool_call:start|>get_weather\ncity=Paris<|tool_call:end|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['Solar writes tool_call:start tokens.', 'a <|tool_ b', '<|tool_arg:end|> alone'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), block('search_web', argument('query', 'x')))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'solar-open',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${block('get_time')}</think>${block('get_weather', argument('city', 'Paris'))}${block('get_time')}`,
    block('write_file', argument('path', 'a'), argument('content', '<|tool_call:end|> </think>')),
    `${block('nope')}<|tool_call:start|>get_ti`,
  ],
  fragments: [
    '<|tool_call:start|>',
    '<|tool_call:end|>',
    '<|tool_arg:start|>',
    '<|tool_arg:value|>',
    '<|tool_arg:end|>',
    'get_time\n',
    block('get_weather', argument('city', 'Rome')),
  ],
});
