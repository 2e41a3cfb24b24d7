import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { conversation, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('llama3')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('llama3: rendering', () => {
  it('renders tools in the Llama 3.3 template style', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'tool', name: 'get_weather' })).toMatchInlineSnapshot(`
      "Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.

      Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.

      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}

      To call several functions, write one JSON object per call, separated by "; ". When no function is needed, answer in plain text instead.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      {"name": "get_weather", "parameters": {"city": "Paris"}}
      - get_weather
      {"name": "get_weather", "parameters": {"city": "Oslo", "unit": "celsius"}}

      Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}.

      You must call the tool "get_weather" in this reply; do not answer without calling it."
    `);
  });

  it('renders one call with "parameters"', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}' })).toMatchInlineSnapshot(
      `"{"name": "get_weather", "parameters": {"city": "Oslo"}}"`,
    );
  });

  it('renders history with ipython-style JSON results', () => {
    expect(format.renderHistory(conversation).slice(2, 4)).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "text": "Two tools.",
              "type": "reasoning",
            },
            {
              "text": "Checking.
      {"name": "get_weather", "parameters": {"city": "Oslo"}}; {"name": "get_time", "parameters": {}}",
              "type": "text",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "text": "{"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}",
              "type": "text",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });
});

describe('llama3: parsing', () => {
  it('reads <|python_tag|> calls with "parameters"', () => {
    expect(parse('<|python_tag|>{"name": "get_weather", "parameters": {"city": "Madrid"}}')).toEqual([
      call('get_weather', { city: 'Madrid' }),
    ]);
    expect(
      parse('<|python_tag|>{"name": "get_weather", "parameters": {"city": "A"}}; {"name": "get_time", "parameters": {}}<|eom_id|>'),
    ).toEqual([call('get_weather', { city: 'A' }), call('get_time', {})]);
  });

  it('reads bare JSON calls, alone or separated by "; "', () => {
    expect(parse('{"name": "search_web", "parameters": {"query": "tokyo population", "max_results": 5}}')).toEqual([
      call('search_web', { query: 'tokyo population', max_results: 5 }),
    ]);
    expect(parse('{"name": "get_weather", "parameters": {"city": "A"}}; {"name": "get_weather", "parameters": {"city": "B"}}')).toEqual([
      call('get_weather', { city: 'A' }),
      call('get_weather', { city: 'B' }),
    ]);
  });

  it('reads <function_call> tags and <function=NAME> tags', () => {
    expect(parse('<function_call>\n{"name": "get_weather", "arguments": {"city": "Berlin"}}\n</function_call>')).toEqual([
      call('get_weather', { city: 'Berlin' }),
    ]);
    expect(
      parse(
        "<function_call>{'name': 'create_event', 'arguments': {'title': 'x', 'options': {'remind': True, 'minutes': None}}}</function_call>",
      ),
    ).toEqual([call('create_event', { title: 'x', options: { remind: true, minutes: null } })]);
    expect(parse('Checking. <function=get_weather>{"city": "Lyon"}</function> ok')).toEqual([
      { type: 'text', text: 'Checking. ' },
      call('get_weather', { city: 'Lyon' }),
      { type: 'text', text: ' ok' },
    ]);
  });

  it('reads a built-in style Python call after <|python_tag|>, rejecting unknown tools', () => {
    expect(parse('<|python_tag|>python(code="print(1)")')).toEqual([call('python', { code: 'print(1)' })]);
    expect(parse('<|python_tag|>brave_search.call(query="x")<|eom_id|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });

  it('rejects unreadable python_tag bodies at the end of the reply but reports cut-off JSON as unclosed', () => {
    expect(parse('<|python_tag|>import os')).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
    expect(parse('<|python_tag|>{"name": "get_weather", "parameters": {"ci')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'llama3', reason: 'unclosed' },
    ]);
  });

  it('keeps a JSON answer and prose as text', () => {
    for (const text of ['{"name": "Alice", "age": 31}', 'I would call {"name": "get_time"} if needed.', '{"result": {"name": "get_time"}}'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  it("reads calls written in other families' syntax", () => {
    expect(parse('<tool_call>{"name": "get_time", "arguments": {}}</tool_call>')).toEqual([call('get_time', {})]);
    expect(parse('[get_weather(city="Graz")]')).toEqual([call('get_weather', { city: 'Graz' })]);
  });
});

testChunkingInvariance({
  name: 'llama3',
  createParser: () => format.createParser(standardTools),
  samples: [
    '{"name": "get_weather", "parameters": {"city": "A"}}; {"name": "get_time", "parameters": {}}',
    '<|python_tag|>{"name": "get_weather", "parameters": {"city": "A"}}; {"name": "get_time", "parameters": {}}<|eom_id|> tail',
    'Sure.<function_call>{"name": "get_time", "arguments": {}}</function_call><function=get_weather>{"city": "</function>"}</function>',
  ],
  fragments: [
    '<|python_tag|>',
    '<|eom_id|>',
    '<|eot_id|>',
    '{"name": "get_time", "parameters": {}}',
    '; ',
    '<function_call>',
    '</function_call>',
    '<function=get_weather>{"city": "X"}</function>',
    '{"name": "search_web", "parameters": {"query": "a; b"}}',
  ],
});
