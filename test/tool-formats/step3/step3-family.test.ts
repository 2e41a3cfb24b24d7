import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { toolCallBegin, toolCallEnd, toolCallsBegin, toolCallsEnd, toolSeparator } from '../../../tool-formats/step3/step3-tokens.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('step3')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

const invoke = (name: string, parameters: Record<string, string> = {}) =>
  `<steptml:invoke name="${name}">\n${Object.entries(parameters)
    .map(([key, value]) => `<steptml:parameter name="${key}">${value}</steptml:parameter>\n`)
    .join('')}</steptml:invoke>`;
const stepCall = (name: string, parameters: Record<string, string> = {}) =>
  `${toolCallBegin}function${toolSeparator}${invoke(name, parameters)}${toolCallEnd}`;
const section = (...calls: string[]) => toolCallsBegin + calls.join('') + toolCallsEnd;

testFamilyContract(format);

describe('step3: tokens', () => {
  it('uses the full-width bar U+FF5C without DeepSeek’s U+2581, byte for byte', () => {
    expect(toolCallsBegin).toBe('<\uFF5Ctool_calls_begin\uFF5C>');
    expect(Buffer.from(toolSeparator, 'utf8').toString('hex')).toBe('3cefbd9c746f6f6c5f736570efbd9c3e');
  });
});

describe('step3: rendering', () => {
  it('renders tools and the section syntax', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'required' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more functions to assist with the user query. The functions are declared in JSON:

      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}
      </tools>

      To call functions, write one tool-call section holding one block per call:
      <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="function_name">
      <steptml:parameter name="parameter_name">value</steptml:parameter>
      </steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
      Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Put several calls one after another inside the same section. When no function is needed, answer directly.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
      <steptml:parameter name="city">Paris</steptml:parameter>
      </steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
      - get_weather
      <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
      <steptml:parameter name="city">Oslo</steptml:parameter>
      <steptml:parameter name="unit">celsius</steptml:parameter>
      </steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });

  it('renders history with one section per turn', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
      <steptml:parameter name="city">Oslo</steptml:parameter>
      </steptml:invoke><｜tool_call_end｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_time">
      </steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
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

describe('step3: parsing', () => {
  it('reads a section with text before it, typing values with the schema', () => {
    expect(parse(`Let me look.\n${section(stepCall('search_web', { query: '2024', max_results: '5' }))}`)).toEqual([
      { type: 'text', text: 'Let me look.\n' },
      call('search_web', { query: '2024', max_results: 5 }),
    ]);
  });

  it('reads several calls in one section, also with a separator between them or no call type (vLLM’s test replies)', () => {
    expect(parse(section(stepCall('get_weather', { city: 'Tokyo' }), '\n', stepCall('get_time')))).toEqual([
      call('get_weather', { city: 'Tokyo' }),
      call('get_time', {}),
    ]);
    const vllmParallel = `${toolCallsBegin}${toolCallBegin}${invoke('get_weather', { city: 'Tokyo' })}${toolCallEnd}${toolSeparator}${toolCallBegin}${invoke('get_time')}${toolCallEnd}${toolCallsEnd}`;
    expect(parse(vllmParallel)).toEqual([call('get_weather', { city: 'Tokyo' }), call('get_time', {})]);
  });

  it('keeps values holding `<`, unicode and nested JSON', () => {
    expect(parse(section(stepCall('write_file', { path: 'a.ts', content: 'if (a < b) { return "日本"; }' })))).toEqual([
      call('write_file', { path: 'a.ts', content: 'if (a < b) { return "日本"; }' }),
    ]);
    expect(parse(section(stepCall('create_event', { title: 'Sync', options: '{"remind": false}', attendees: '["ü@x.io"]' })))).toEqual([
      call('create_event', { title: 'Sync', options: { remind: false }, attendees: ['ü@x.io'] }),
    ]);
  });

  it('reads a call whose value holds the end tokens, keeping them in the value', () => {
    // Both the section scanner and the call split skip values.
    const content = `say ${toolCallEnd}${toolCallsEnd} literally`;
    const events = parse(`Writing.${section(stepCall('write_file', { path: 'step3.md', content }))}`);
    expect(events).toEqual([{ type: 'text', text: 'Writing.' }, call('write_file', { path: 'step3.md', content })]);
    expect(textOf(events)).not.toContain('literally');
  });

  it('reads <think> reasoning and a call without its section', () => {
    expect(parse(`<think>Need the time.</think>${stepCall('get_time')}${toolCallsEnd}`)).toEqual([
      { type: 'reasoning', text: 'Need the time.' },
      call('get_time', {}),
    ]);
  });

  it('reads the complete calls of a section whose end never came, and reports a cut-off one', () => {
    expect(parse(toolCallsBegin + stepCall('get_weather', { city: 'Lima' }))).toEqual([call('get_weather', { city: 'Lima' })]);
    const cut = `${toolCallsBegin}${toolCallBegin}function${toolSeparator}<steptml:invoke name="search_web">\n<steptml:parameter name="query">no`;
    expect(parse(`Searching.\n${cut}`)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'step3', text: cut, reason: 'unclosed' },
    ]);
    expect(parse(`${toolCallsBegin}${toolCallBegin}func`)).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
  });

  it('rejects unknown tools and malformed calls, keeping their markup out of the text', () => {
    const unknown = parse(`Sure.\n${section(stepCall('delete_all_files'))}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
    expect(parse(section(`${toolCallBegin}get the weather${toolCallEnd}`))).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(
      parse(section(`${toolCallBegin}function${toolSeparator}<steptml:invoke name="get_time">oops</steptml:invoke>${toolCallEnd}`)),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose and DeepSeek-looking tokens as text, and only calls the request’s tools', () => {
    for (const text of ['Use <｜tool_sep｜> between parts.', 'a <｜ b', '<steptml:invoke name="x"> in prose'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), section(stepCall('search_web', { query: 'x' })))).toMatchObject(
      [{ type: 'tool-call-rejected', code: 'unavailable_tool' }],
    );
  });
});

testChunkingInvariance({
  name: 'step3',
  createParser: () => format.createParser(standardTools),
  samples: [
    `Checking.\n${section(stepCall('get_weather', { city: 'Paris' }), stepCall('get_time'))}\nDone.`,
    `<think>plan ${toolCallsBegin}</think>${section(stepCall('write_file', { path: 'a', content: '<｜tool_call_end｜> </think>' }))}`,
    `${section(stepCall('nope'))}${stepCall('get_time')}${toolCallsBegin}${toolCallBegin}function${toolSeparator}<steptml:inv`,
  ],
  fragments: [
    toolCallsBegin,
    toolCallsEnd,
    toolCallBegin,
    toolCallEnd,
    toolSeparator,
    'function',
    '<steptml:invoke name="get_time">',
    '</steptml:invoke>',
    stepCall('get_weather', { city: 'Rome' }),
  ],
});
