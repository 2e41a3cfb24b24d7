import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('nemotron')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const toolCall = (json: string) => `<TOOLCALL>${json}</TOOLCALL>`;

testFamilyContract(format);

describe('nemotron: rendering', () => {
  it('renders the templates’ <AVAILABLE_TOOLS> list and <TOOLCALL> format', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "You can use the following tools to assist the user if required:

      <AVAILABLE_TOOLS>[{"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}, {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}]</AVAILABLE_TOOLS>

      If you decide to call any tool(s), use the following format:
      <TOOLCALL>[{"name": "tool_name1", "arguments": "tool_args1"}, {"name": "tool_name2", "arguments": "tool_args2"}]</TOOLCALL>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL>
      - get_weather
      <TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}]</TOOLCALL>

      The user will execute tool-calls and return responses from tool(s) in this format:
      <TOOL_RESPONSE>[{"tool_response1"}, {"tool_response2"}]</TOOL_RESPONSE>

      Based on the tool responses, you can call additional tools if needed, correct tool calls if any errors are found, or just respond to the user."
    `);
  });

  it('renders history with one <TOOLCALL> list per turn and <TOOL_RESPONSE> results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "get_time", "arguments": {}}]</TOOLCALL>
      [user] <TOOL_RESPONSE>[-3 C, snow, Error: error: clock unavailable]</TOOL_RESPONSE>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('nemotron: parsing', () => {
  it('reads a call list after reasoning, also when the template opened <think>', () => {
    expect(
      parse(`<think>\nThe user wants weather.\n</think>\n\n${toolCall('[{"name": "get_weather", "arguments": {"city": "Santa Clara"}}]')}`),
    ).toEqual([
      { type: 'reasoning', text: 'The user wants weather.' },
      { type: 'text', text: '\n\n' },
      call('get_weather', { city: 'Santa Clara' }),
    ]);
    expect(parse(`Time.</think>${toolCall('[{"name": "get_time", "arguments": {}}]')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reads several calls, nested and unicode arguments, and arguments written as a JSON string', () => {
    expect(parse(toolCall('[{"name": "get_time", "arguments": {}}, {"name": "search_web", "arguments": {"query": "東京"}}]'))).toEqual([
      call('get_time', {}),
      call('search_web', { query: '東京' }),
    ]);
    expect(
      parse(toolCall('[{"name": "create_event", "arguments": "{\\"title\\": \\"x\\", \\"options\\": {\\"remind\\": true}}"}]')),
    ).toEqual([call('create_event', { title: 'x', options: { remind: true } })]);
  });

  it('keeps the close tag inside a string argument', () => {
    expect(parse(toolCall('[{"name": "write_file", "arguments": {"path": "a", "content": "</TOOLCALL>"}}]'))).toEqual([
      call('write_file', { path: 'a', content: '</TOOLCALL>' }),
    ]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and prose', () => {
    expect(parse('<TOOLCALL>[{"name": "search_web", "arguments": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'nemotron', reason: 'unclosed' },
    ]);
    expect(parse(toolCall('[{"name": "delete_all_files", "arguments": {}}]'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(parse(toolCall('call the weather tool'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['Nemotron wraps calls in TOOLCALL tags.', 'a <TOOL b', '</TOOLCALL> alone'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), toolCall('[{"name": "search_web", "arguments": {}}]')),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'nemotron',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${toolCall('[{"name": "get_time", "arguments": {}}]')}</think>${toolCall('[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]')}`,
    toolCall('[{"name": "write_file", "arguments": {"path": "a", "content": "</TOOLCALL> </think>"}}]'),
    `${toolCall('[{"name": "nope", "arguments": {}}]')}<TOOLCALL>[{"name": "get_ti`,
  ],
  fragments: [
    '<TOOLCALL>',
    '</TOOLCALL>',
    '[{"name": "get_time", "arguments": {}}]',
    toolCall('[{"name": "get_weather", "arguments": {"city": "Rome"}}]'),
  ],
});
