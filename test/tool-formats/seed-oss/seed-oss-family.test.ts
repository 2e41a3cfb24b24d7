import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('seed-oss')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

/** A call as the template writes it: `<parameter=K>V</parameter>` lines inside one function block. */
const seedCall = (name: string, parameters: Record<string, string> = {}) =>
  `<seed:tool_call>\n<function=${name}>\n${Object.entries(parameters)
    .map(([key, value]) => `<parameter=${key}>${value}</parameter>\n`)
    .join('')}</function>\n</seed:tool_call>`;

testFamilyContract(format);

describe('seed-oss: rendering', () => {
  it('renders tools as the template’s Python signatures with its format line', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "You may call one or more functions to assist with the user query.

      Function:
      def get_weather(city: str, unit: str):
          """
          Get the current weather for a city.

          Args:
          - city (str) [必填]: City name
          - unit (str) [选填]:
          """

      Function:
      def search_web(query: str, max_results: int):
          """
          Search the web and return the top results.

          Args:
          - query (str) [必填]:
          - max_results (int) [选填]:
          """

      工具调用请遵循如下格式:
      <seed:tool_call>
      <function=example_function_name>
      <parameter=example_parameter_1>value_1</parameter>
      <parameter=example_parameter_2>This is the value for the second parameter
      that can span
      multiple lines</parameter>
      </function>
      </seed:tool_call>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <seed:tool_call>
      <function=get_weather>
      <parameter=city>Paris</parameter>
      </function>
      </seed:tool_call>
      - get_weather
      <seed:tool_call>
      <function=get_weather>
      <parameter=city>Oslo</parameter>
      <parameter=unit>celsius</parameter>
      </function>
      </seed:tool_call>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags. When no function is needed, answer directly."
    `);
  });

  it('renders history with the template’s call layout and tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <seed:tool_call>
      <function=get_weather>
      <parameter=city>Oslo</parameter>
      </function>
      </seed:tool_call>
      <seed:tool_call>
      <function=get_time>
      </function>
      </seed:tool_call>
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

describe('seed-oss: parsing', () => {
  it('reads a call with text before it, typing values with the schema', () => {
    expect(parse(`Let me check.\n${seedCall('search_web', { query: 'seed oss', max_results: '3' })}`)).toEqual([
      { type: 'text', text: 'Let me check.\n' },
      call('search_web', { query: 'seed oss', max_results: 3 }),
    ]);
  });

  it('keeps a string value’s whitespace as written, unlike Qwen3-Coder', () => {
    // llama.cpp keeps it; the template writes values tight against their tags.
    expect(parse(seedCall('write_file', { path: 'a.py', content: '\n    x = 1\n\n' }))).toEqual([
      call('write_file', { path: 'a.py', content: '\n    x = 1\n\n' }),
    ]);
    expect(parse(seedCall('search_web', { query: ' 42 ', max_results: ' 5\n' }))).toEqual([
      call('search_web', { query: ' 42 ', max_results: 5 }),
    ]);
  });

  it('reads several calls, in one wrapper or several', () => {
    const two =
      '<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n<function=get_time>\n</function>\n</seed:tool_call>';
    expect(parse(two)).toEqual([call('get_weather', { city: 'Paris' }), call('get_time', {})]);
    expect(parse(`${seedCall('get_time')}\n${seedCall('get_weather', { city: 'Lyon' })}`)).toEqual([
      call('get_time', {}),
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Lyon' }),
    ]);
  });

  it('streams <seed:think> as reasoning, where a quoted call is not a call', () => {
    expect(parse(`<seed:think>I could write ${seedCall('get_time')} here.</seed:think>The answer is 4.`)).toEqual([
      { type: 'reasoning', text: `I could write ${seedCall('get_time')} here.` },
      { type: 'text', text: 'The answer is 4.' },
    ]);
    expect(parse(`The user wants the time.</seed:think>\n${seedCall('get_time')}<seed:eos>`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants the time.' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('keeps nested JSON, unicode and markup inside values', () => {
    expect(
      parse(seedCall('create_event', { title: 'Réunion {hebdo} 🗓️', attendees: '["a@x.io"]', options: '{"remind": true, "minutes": 10}' })),
    ).toEqual([call('create_event', { title: 'Réunion {hebdo} 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
    expect(parse(seedCall('write_file', { path: 'x.md', content: 'use </seed:tool_call> and <function=x> literally' }))).toEqual([
      call('write_file', { path: 'x.md', content: 'use </seed:tool_call> and <function=x> literally' }),
    ]);
  });

  it('reports a cut-off call as unparsed, never as a call', () => {
    const cut = '<seed:tool_call>\n<function=search_web>\n<parameter=query>half a quer';
    expect(parse(`Searching.\n${cut}`)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'seed-oss', text: cut, reason: 'unclosed' },
    ]);
  });

  it('rejects unknown tools and malformed bodies, keeping the markup out of the text', () => {
    const unknown = parse(`Sure.\n${seedCall('delete_all_files', { confirm: 'true' })}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
    expect(parse('<seed:tool_call>get the weather</seed:tool_call>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('keeps prose and JSON answers as text, and only calls the request’s tools', () => {
    for (const text of ['Seed uses <seed:tool_call tags.', '```json\n{"name": "Alice"}\n```'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), seedCall('search_web', { query: 'x' }))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'seed-oss',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<seed:think>plan: ${seedCall('get_time')}</seed:think>Checking.\n${seedCall('get_weather', { city: 'Paris' })}<seed:eos>`,
    seedCall('write_file', { path: 'a', content: '</seed:tool_call>\n<parameter=x>y</parameter>' }),
    `${seedCall('nope')}<seed:tool_call>\n<function=get_ti`,
  ],
  fragments: [
    '<seed:tool_call>',
    '</seed:tool_call>',
    '<seed:think>',
    '</seed:think>',
    '<function=get_time>',
    '<parameter=city>',
    '</parameter>',
    '</function>',
    '<seed:eos>',
    seedCall('get_weather', { city: 'Rome' }),
  ],
});
