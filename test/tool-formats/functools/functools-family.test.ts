import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('functools')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('functools: rendering', () => {
  it('renders the tools with the Phi-4-mini / FireFunction v2 system suffix', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "In addition to plain text responses, you can choose to call one or more of the provided functions.

      Use the following rule to decide when to call a function:
        * if the response can be generated from your internal knowledge (e.g., as in the case of queries like "What is the capital of Poland?"), do so
        * if you need external information that can be obtained by calling one or more of the provided functions, generate a function calls

      Available functions as JSON spec:
      {
          "type": "function",
          "function": {
              "name": "get_weather",
              "description": "Get the current weather for a city.",
              "parameters": {
                  "type": "object",
                  "properties": {
                      "city": {
                          "type": "string",
                          "description": "City name"
                      },
                      "unit": {
                          "type": "string",
                          "enum": [
                              "celsius",
                              "fahrenheit"
                          ]
                      }
                  },
                  "required": [
                      "city"
                  ]
              }
          }
      }

      If you decide to call functions:
        * prefix function calls with functools marker (no closing marker required)
        * all function calls should be generated in a single JSON list formatted as functools[{"name": [function name], "arguments": [function arguments as JSON]}, ...]
        * follow the provided JSON schema. Do not hallucinate arguments or values. Do not blindly copy values from the provided samples
        * respect the argument type formatting. E.g., if the type is number and format is float, write value 7 as 7.0
        * make sure you pick the right functions that match the user intent

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]
      - get_weather
      functools[{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}]

      Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}."
    `);
  });

  it('renders a turn of calls as one functools list', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}' })).toMatchInlineSnapshot(
      `"functools[{"name": "get_weather", "arguments": {"city": "Oslo"}}]"`,
    );
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      functools[{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "get_time", "arguments": {}}]
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('functools: parsing', () => {
  it('reads the list after the marker, with text before it (FireFunction writes a space first)', () => {
    expect(parse('functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('Sure, checking. functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]')).toEqual([
      { type: 'text', text: 'Sure, checking. ' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('reads several calls of one list, with "parameters" too, and text after the list', () => {
    expect(
      parse('functools[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "parameters": {}}]\nDone.'),
    ).toEqual([call('get_weather', { city: 'Paris' }), call('get_time', {}), { type: 'text', text: '\nDone.' }]);
  });

  it('keeps unicode, nesting and brackets inside strings', () => {
    expect(
      parse(
        'functools[{"name": "create_event", "arguments": {"title": "Sync ] [weekly] 🗓️", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}}]',
      ),
    ).toEqual([call('create_event', { title: 'Sync ] [weekly] 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
  });

  it('takes a list without its "]" at the end of the reply ("no closing marker required")', () => {
    expect(parse(' functools[{"name": "get_weather", "arguments": {"city": "Paris"}}')).toEqual([
      { type: 'text', text: ' ' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('reports a list cut off inside a call as unparsed, never as a call', () => {
    const cut = 'functools[{"name": "get_weather", "arguments": {"city": "Par';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'functools', text: cut, reason: 'unclosed' }]);
  });

  it('reads Phi-4-mini template tags <|tool_call|>…<|/tool_call|>', () => {
    expect(parse('<|tool_call|>{"name": "get_time", "arguments": {}}<|/tool_call|>')).toEqual([call('get_time', {})]);
  });

  it('rejects unknown tools and malformed lists, keeping their markup out of the text', () => {
    expect(parse('functools[{"name": "delete_all", "arguments": {}}] ok')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
      { type: 'text', text: ' ok' },
    ]);
    expect(parse('functools[{"name": "get_weather", "arguments": {"city" "Paris"}}]')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), 'functools[{"name": "get_time", "arguments": {}}]'),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });

  it("keeps Python's functools module and JSON answers as text", () => {
    for (const text of [
      'import functools\n\n@functools.cache\ndef f(): ...',
      'Use functools.partial here.',
      '{"name": "Alice", "age": 31}',
      'functools[0] is a subscript',
      'ends with functools[',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });
});

testChunkingInvariance({
  name: 'functools',
  createParser: () => format.createParser(standardTools),
  samples: [
    'Let me check. functools[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]',
    'functools[{"name": "write_file", "arguments": {"path": "a", "content": "] functools[ ```"}}]\nimport functools',
    'functools[{"name": "nope", "arguments": {}}] functools[{"name": "get_ti',
  ],
  fragments: [
    'functools[',
    'functools',
    ']',
    ', ',
    '{"name": "get_time", "arguments": {}}',
    'functools[{"name": "search_web", "arguments": {"query": "a ] b"}}]',
    '<|tool_call|>',
    '<|/tool_call|>',
  ],
});
