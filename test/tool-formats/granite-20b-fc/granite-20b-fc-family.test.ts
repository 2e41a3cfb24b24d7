import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, searchWeb, standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const format = registry.get('granite-20b-fc')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('granite-20b-fc: rendering', () => {
  it("renders tools as the template's function-call library", () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "You are a helpful assistant with access to the following function calls. Your task is to understand the given conversation with function calls and responses and generate natural language response as the ASSISTANT to continue the conversation. You may use the following function calls to understand how to respond to the user query.

      <|function_call_library|>
      {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}
      {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}

      To call a function, write <function_call> followed by one JSON object with its name and arguments:
      <function_call> {"name": <function-name>, "arguments": <args-json-object>}
      Write one <function_call> per call. If none of the functions are relevant, answer in plain text.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <function_call> {"name": "get_weather", "arguments": {"city": "Paris"}}
      - get_weather
      <function_call> {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}

      Function results come back to you in the next user turn, each after <function_response>."
    `);
  });

  it('renders calls as <function_call> lines and results as <function_response> lines', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <function_call> {"name": "get_weather", "arguments": {"city": "Oslo"}}
      <function_call> {"name": "get_time", "arguments": {}}
      [user] <function_response> -3 C, snow
      <function_response> Error: error: clock unavailable
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('granite-20b-fc: parsing', () => {
  it('reads calls one after another without closers, ending at the next <function_call> or the end of the reply', () => {
    const reply =
      '<function_call> {"name": "get_weather", "arguments": {"city": "San José"}} <function_call> {"name": "search_web", "arguments": {"query": "flights [SJC] \\"cheap\\"", "max_results": 2}}';
    const expected = [call('get_weather', { city: 'San José' }), call('search_web', { query: 'flights [SJC] "cheap"', max_results: 2 })];
    expect(parse(reply)).toEqual(expected);
    // Every family's parser reads it the same way (the marker is registered alike by llama3).
    for (const family of ['llama3', 'hermes', 'minimax-m2'])
      expect(
        expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), reply),
        family,
      ).toEqual(expected);
  });

  it("reads Llama's closed <function_call> tags too, with text before them", () => {
    expect(parse('I will look.\n<function_call>\n{"name": "get_time", "arguments": {}}\n</function_call>')).toEqual([
      { type: 'text', text: 'I will look.\n' },
      call('get_time', {}),
    ]);
  });

  it("rejects the template's no_function and other unknown names, and never surfaces a cut-off call", () => {
    expect(parse('<function_call> {"name": "no_function", "arguments": {}}')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    const cut = '<function_call> {"name": "get_weather", "arguments": {"city": "Lo';
    expect(parse(`<function_call> {"name": "get_time", "arguments": {}} ${cut}`)).toEqual([
      call('get_time', {}),
      { type: 'tool-call-unparsed', format: 'granite-20b-fc', text: cut, reason: 'unclosed' },
    ]);
  });
});

testChunkingInvariance({
  name: 'granite-20b-fc',
  createParser: () => format.createParser(standardTools),
  samples: [
    '<function_call> {"name": "get_time", "arguments": {}} <function_call> {"name": "get_weather", "arguments": {"city": "<function_call>"}}',
  ],
  fragments: ['<function_call>', '</function_call>', ' {"name": "get_weather", "arguments": {"city": "Rome"}}', ' {"name": "get_wea'],
});
