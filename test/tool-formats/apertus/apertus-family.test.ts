import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('apertus')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const section = (json: string) => `<|tools_prefix|>${json}<|tools_suffix|>`;

testFamilyContract(format);

describe('apertus: rendering', () => {
  it('renders tools and the name-keyed call list', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more of the following functions to help with the request. They are declared in JSON:

      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}

      To call functions, write one list holding one object per call, whose only key is the function name and whose value holds the arguments:
      <|tools_prefix|>[{"function_name": {"argument": "value"}}, {"other_function": {}}]<|tools_suffix|>
      When no function is needed, answer directly.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>
      - get_weather
      <|tools_prefix|>[{"get_weather": {"city": "Oslo", "unit": "celsius"}}]<|tools_suffix|>

      Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}."
    `);
  });

  it('renders history with one list per turn', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|tools_prefix|>[{"get_weather": {"city": "Oslo"}}, {"get_time": {}}]<|tools_suffix|>
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('apertus: parsing', () => {
  it('reads name-keyed calls with text before them (vLLM’s example)', () => {
    expect(parse(`I will check. ${section('[{"get_weather": {"city": "Paris"}}]')}`)).toEqual([
      { type: 'text', text: 'I will check. ' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('reads several calls, nested and unicode arguments, and the common {name, arguments} shape', () => {
    expect(parse(section('[{"get_weather": {"city": "Zürich"}}, {"get_time": {}}]'))).toEqual([
      call('get_weather', { city: 'Zürich' }),
      call('get_time', {}),
    ]);
    expect(parse(section('[{"create_event": {"title": "Sitzung {wöchentlich}", "options": {"remind": true}}}]'))).toEqual([
      call('create_event', { title: 'Sitzung {wöchentlich}', options: { remind: true } }),
    ]);
    expect(parse(section('[{"name": "get_time", "arguments": {}}]'))).toEqual([call('get_time', {})]);
  });

  it('streams <|inner_prefix|> reasoning and drops the end-of-turn token', () => {
    expect(
      parse(`<|inner_prefix|>Weather needed.<|inner_suffix|>${section('[{"get_weather": {"city": "Bern"}}]')}<|assistant_end|>`),
    ).toEqual([{ type: 'reasoning', text: 'Weather needed.' }, call('get_weather', { city: 'Bern' })]);
  });

  it('reads a complete list whose suffix never came, and reports a cut-off one', () => {
    expect(parse('<|tools_prefix|>[{"get_time": {}}]')).toEqual([call('get_time', {})]);
    expect(parse('<|tools_prefix|>[{"search_web": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'apertus', reason: 'unclosed' },
    ]);
  });

  it('rejects unknown tools and malformed lists, keeping the markup out of the text', () => {
    expect(parse(section('[{"delete_all_files": {}}]'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(section('[{"get_weather": "Paris"}]'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
    expect(parse(section('get the weather'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps JSON answers and prose as text, and only calls the request’s tools', () => {
    for (const text of ['[{"Alice": {"age": 31}}]', 'Apertus writes <|tools_prefix|', 'a <| b |>'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), section('[{"search_web": {"query": "x"}}]'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'apertus',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<|inner_prefix|>plan ${section('[{"get_time": {}}]')}<|inner_suffix|>Sure. ${section('[{"get_weather": {"city": "Genf"}}, {"get_time": {}}]')}<|assistant_end|>`,
    section('[{"write_file": {"path": "a", "content": "<|tools_suffix|> ]} <|inner_suffix|>"}}]'),
    `${section('[{"nope": {}}]')}<|tools_prefix|>[{"get_wea`,
  ],
  fragments: [
    '<|tools_prefix|>',
    '<|tools_suffix|>',
    '<|inner_prefix|>',
    '<|inner_suffix|>',
    '<|assistant_end|>',
    '[{"get_time": {}}]',
    section('[{"get_weather": {"city": "Rome"}}]'),
  ],
});
