import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('longcat')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const block = (body: string) => `<longcat_tool_call>\n${body}\n</longcat_tool_call>`;
const pair = (key: string, value: string) => `<longcat_arg_key>${key}</longcat_arg_key>\n<longcat_arg_value>${value}</longcat_arg_value>\n`;

testFamilyContract(format);

describe('longcat: rendering', () => {
  it('renders the tools and the <longcat_tool_call> JSON format', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      </tools>

      For each function call, return a json object with function name and arguments within <longcat_tool_call></longcat_tool_call> XML tags:
      <longcat_tool_call>
      {"name": <function-name>, "arguments": <args-dict>}
      </longcat_tool_call>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <longcat_tool_call>
      {"name": "get_weather", "arguments": {"city": "Paris"}}
      </longcat_tool_call>
      - get_weather
      <longcat_tool_call>
      {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}
      </longcat_tool_call>

      Function results come back to you in the next user turn, each inside <longcat_tool_response></longcat_tool_response> XML tags. When no function is needed, answer directly."
    `);
  });

  it('renders history with one block per call and <longcat_tool_response> results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <longcat_tool_call>
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      </longcat_tool_call>
      <longcat_tool_call>
      {"name": "get_time", "arguments": {}}
      </longcat_tool_call>
      [user] <longcat_tool_response>
      -3 C, snow
      </longcat_tool_response>
      <longcat_tool_response>
      Error: error: clock unavailable
      </longcat_tool_response>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('longcat: parsing', () => {
  it('reads JSON blocks, several in a row, with text before them', () => {
    expect(
      parse(
        `I'll check both.\n${block('{"name": "get_weather", "arguments": {"city": "Paris"}}')}\n${block('{"name": "get_time", "arguments": {}}')}`,
      ),
    ).toEqual([
      { type: 'text', text: "I'll check both.\n" },
      call('get_weather', { city: 'Paris' }),
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('reads the arg-pair body, values converted by the schema, the close tag inside a value kept', () => {
    expect(
      parse(`<longcat_tool_call>search_web\n${pair('query', 'a </longcat_tool_call> b')}${pair('max_results', '5')}</longcat_tool_call>`),
    ).toEqual([call('search_web', { query: 'a </longcat_tool_call> b', max_results: 5 })]);
    expect(
      parse(`<longcat_tool_call>write_file\n${pair('path', '007')}${pair('content', 'naïve 日本語\n{x}')}</longcat_tool_call>`),
    ).toEqual([call('write_file', { path: '007', content: 'naïve 日本語\n{x}' })]);
  });

  it('reads <think> reasoning before a call', () => {
    expect(parse(`<think>Need data.</think>\n${block('{"name": "get_time", "arguments": {}}')}`)).toEqual([
      { type: 'reasoning', text: 'Need data.' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('reports cut-off calls as unparsed, and rejects unknown tools and malformed bodies', () => {
    expect(parse('<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Pa')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'longcat', reason: 'unclosed' },
    ]);
    expect(parse(`<longcat_tool_call>search_web\n${pair('query', 'x')}`)).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
    expect(parse(block('{"name": "rm_rf", "arguments": {}}'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(block('get the weather please'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps JSON answers and prose about the tags as text', () => {
    for (const text of ['{"name": "Alice", "age": 31}', 'The tag is written <longcat_tool_', 'Use <longcat_arg_key> for names.']) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });
});

testChunkingInvariance({
  name: 'longcat',
  createParser: () => format.createParser(standardTools),
  samples: [
    `Checking.\n${block('{"name": "get_weather", "arguments": {"city": "Paris"}}')}`,
    `<longcat_tool_call>search_web\n${pair('query', '</longcat_tool_call> "x"')}</longcat_tool_call> done`,
    `${block('{"name": "nope", "arguments": {}}')}<longcat_tool_call>get_ti`,
  ],
  fragments: [
    '<longcat_tool_call>',
    '</longcat_tool_call>',
    '<longcat_arg_key>',
    '</longcat_arg_key>',
    '<longcat_arg_value>',
    '</longcat_arg_value>',
    pair('query', 'a'),
    '{"name": "get_time", "arguments": {}}',
  ],
});
