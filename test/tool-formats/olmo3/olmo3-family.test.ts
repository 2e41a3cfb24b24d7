import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('olmo3')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const block = (...lines: string[]) => `<function_calls>\n${lines.join('\n')}\n</function_calls>`;

testFamilyContract(format);

describe('olmo3: rendering', () => {
  it('renders tools inside <functions> with the template’s instructions', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "You are provided with function signatures within <functions></functions> XML tags. You may call one or more functions to assist with the user query. Output any function calls within <function_calls></function_calls> XML tags. Do not make assumptions about what values to plug into functions.

      <functions>[{"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}, {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}]</functions>

      Write each call as a Python function call with keyword arguments, one call per line:
      <function_calls>
      function_name(parameter_1="value", parameter_2=3)
      </function_calls>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <function_calls>
      get_weather(city="Paris")
      </function_calls>
      - get_weather
      <function_calls>
      get_weather(city="Oslo", unit="celsius")
      </function_calls>

      Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}. When no function is needed, answer directly."
    `);
  });

  it('renders history with one block per turn, a call per line', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <function_calls>
      get_weather(city="Oslo")
      get_time()
      </function_calls>
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('olmo3: parsing', () => {
  it('reads newline-separated calls with text before them', () => {
    expect(parse(`I'll check both.\n${block('get_weather(city="Paris")', 'get_time()')}`)).toEqual([
      { type: 'text', text: "I'll check both.\n" },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
  });

  it('takes JSON literals as well as Python ones, and nested values', () => {
    expect(parse(block('create_event(title="Sync 🗓️", attendees=["a@x.io"], options={"remind": true, "minutes": null})'))).toEqual([
      call('create_event', { title: 'Sync 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: null } }),
    ]);
    expect(parse(block("create_event(title='x', options={'remind': False})"))).toEqual([
      call('create_event', { title: 'x', options: { remind: false } }),
    ]);
  });

  it('keeps the close tag inside a string argument', () => {
    expect(parse(block('write_file(path="a.md", content="ends with </function_calls> here\\n")'))).toEqual([
      call('write_file', { path: 'a.md', content: 'ends with </function_calls> here\n' }),
    ]);
  });

  it('reads OLMo 3 Think reasoning, also when the template opened <think>', () => {
    expect(parse(`Need the time.</think>\n${block('get_time()')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Need the time.' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and prose in the block', () => {
    const cut = '<function_calls>\nsearch_web(query="half';
    expect(parse(`Searching.\n${cut}`)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'olmo3', text: cut, reason: 'unclosed' },
    ]);
    expect(parse(block('delete_all_files(confirm=True)'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(block('I would call the weather tool'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['Call get_time() when needed.', 'The <function_calls tag wraps calls.'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), block('search_web(query="x")'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'olmo3',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${block('get_time()')}</think>Sure.\n${block('get_weather(city="Oslo", unit=null)', 'get_time()')}`,
    block('write_file(path="a", content="</function_calls> (x) [y]")'),
    `${block('nope()')}<function_calls>\nget_weather(city="Pa`,
  ],
  fragments: ['<function_calls>', '</function_calls>', 'get_time()', 'get_weather(city="Rome")', '\n', block('search_web(query="a ) b")')],
});
