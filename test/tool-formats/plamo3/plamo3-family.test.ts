/** The plamo3 family: PLaMo 3's `<|plamo:begin_tool_requests:plamo|>` sections. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('plamo3')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const request = (name: string, json: string) =>
  `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>${name}<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>${json}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>`;
const section = (...requests: string[]) => `<|plamo:begin_tool_requests:plamo|>${requests.join('')}<|plamo:end_tool_requests:plamo|>`;

testFamilyContract(format);

describe('plamo3: rendering', () => {
  it('renders the tool list and the tool-requests format', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}
      </tools>

      To call functions, write one tool-requests block holding one request per call, its arguments as one JSON object:
      <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>function_name<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{"argument_name": "value"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>
      Put several requests one after another inside the same block. When no function is needed, answer directly.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{"city": "Paris"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>
      - get_weather
      <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{"city": "Oslo", "unit": "celsius"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags."
    `);
  });

  it('renders history with one section per turn and tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{"city": "Oslo"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_time<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>
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

describe('plamo3: parsing', () => {
  it('reads text then a section of several requests, nested and unicode arguments', () => {
    expect(
      parse(
        `東京の天気を調べます。\n${section(request('get_weather', '{"city": "東京"}'), request('create_event', '{"title": "会議", "options": {"remind": true}}'))}`,
      ),
    ).toEqual([
      { type: 'text', text: '東京の天気を調べます。\n' },
      call('get_weather', { city: '東京' }),
      call('create_event', { title: '会議', options: { remind: true } }),
    ]);
  });

  it('keeps the section’s close tag inside a JSON argument string', () => {
    expect(parse(section(request('write_file', '{"path": "a", "content": "<|plamo:end_tool_requests:plamo|>"}')))).toEqual([
      call('write_file', { path: 'a', content: '<|plamo:end_tool_requests:plamo|>' }),
    ]);
    // The split into requests skips the arguments too.
    expect(parse(section(request('write_file', '{"path": "a", "content": "<|plamo:end_tool_request:plamo|>"}')))).toEqual([
      call('write_file', { path: 'a', content: '<|plamo:end_tool_request:plamo|>' }),
    ]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`<think>Time.</think>${section(request('get_time', '{}'))}`)).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
    expect(parse(`Time.</think>${section(request('get_time', '{}'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off request as unparsed and rejects unknown tools and malformed requests', () => {
    const cut =
      '<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>search_web<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{"query": "ha';
    expect(parse(`<|plamo:begin_tool_requests:plamo|>${cut}`)).toMatchObject([
      { type: 'tool-call-unparsed', format: 'plamo3', reason: 'unclosed' },
    ]);
    // After a complete request, the cut-off one is rejected and the complete one kept.
    expect(parse(`<|plamo:begin_tool_requests:plamo|>${request('get_time', '{}')}${cut}`)).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(parse(section(request('delete_all_files', '{}')))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(section(request('get_weather', 'city=Paris')))).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(parse(section('get_weather(city="Paris")'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['PLaMo writes plamo:begin_tool_requests tags.', 'a <|plamo: b', '<|plamo:end_tool_requests:plamo|> alone'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), section(request('search_web', '{"query": "x"}'))),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'plamo3',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${section(request('get_time', '{}'))}</think>${section(request('get_weather', '{"city": "Paris"}'), request('get_time', '{}'))}`,
    section(request('write_file', '{"path": "a", "content": "<|plamo:end_tool_requests:plamo|> </think>"}')),
    `${section(request('nope', '{}'))}<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>`,
  ],
  fragments: [
    '<|plamo:begin_tool_requests:plamo|>',
    '<|plamo:end_tool_requests:plamo|>',
    request('get_time', '{}'),
    request('get_weather', '{"city": "Rome"}'),
    '{"city": "Oslo"}',
  ],
});
