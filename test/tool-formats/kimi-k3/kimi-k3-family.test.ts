/** The kimi-k3 family: Kimi K3's XTML channels and `<|open|>tools<|sep|>` call sections. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('kimi-k3')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const argument = (key: string, type: string, value: string) =>
  `<|open|>argument key="${key}" type="${type}"<|sep|>${value}<|close|>argument<|sep|>`;
const k3Call = (name: string, index: number, ...body: string[]) =>
  `<|open|>call tool="${name}" index="${index}"<|sep|>${body.join('')}<|close|>call<|sep|>`;
const tools = (...calls: string[]) => `<|open|>tools<|sep|>${calls.join('')}<|close|>tools<|sep|>`;
const response = (text: string) => `<|open|>response<|sep|>${text}<|close|>response<|sep|>`;
const end = '<|close|>message<|sep|><|end_of_msg|>';

testFamilyContract(format);

describe('kimi-k3: rendering', () => {
  it('renders the template’s tool declaration and the call markup', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools
      Here are the available tools, described in JSONSchema.

      \`\`\`json
      [{"function":{"description":"Get the current weather for a city.","name":"get_weather","parameters":{"properties":{"city":{"description":"City name","type":"string"},"unit":{"enum":["celsius","fahrenheit"],"type":"string"}},"required":["city"],"type":"object"}},"type":"function"},{"function":{"description":"Search the web and return the top results.","name":"search_web","parameters":{"properties":{"max_results":{"maximum":20,"minimum":1,"type":"integer"},"query":{"type":"string"}},"required":["query"],"type":"object"}},"type":"function"}]
      \`\`\`

      To call tools, write after your response one <|open|>tools<|sep|> section holding one call tag per call, numbered from 1:
      <|open|>tools<|sep|><|open|>call tool="tool_name" index="1"<|sep|><|open|>argument key="argument_name" type="string"<|sep|>value<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>
      Give each argument its type (string, number, boolean, null, object or array); write string values as they are, and every other value as JSON.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>
      - get_weather
      <|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Oslo<|close|>argument<|sep|><|open|>argument key="unit" type="string"<|sep|>celsius<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>

      Tool results come back to you in the next user turn, each in a message block with role="tool"."
    `);
  });

  it('renders history with numbered call tags and tool message blocks', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Oslo<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool="get_time" index="2"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>
      [user] <|open|>message role="tool" tool="get_weather" index="1"<|sep|>-3 C, snow<|close|>message<|sep|><|end_of_msg|><|open|>message role="tool" tool="get_time" index="2"<|sep|>Error: error: clock unavailable<|close|>message<|sep|><|end_of_msg|>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('kimi-k3: parsing', () => {
  it('reads a reply that began inside the think channel: reasoning, response, then typed calls', () => {
    const reply = `The user wants weather.<|close|>think<|sep|>${response('Checking both.')}${tools(k3Call('get_weather', 1, argument('city', 'string', 'Paris'), argument('unit', 'string', 'celsius')), k3Call('search_web', 2, argument('query', 'string', '東京 "today"'), argument('max_results', 'number', '5')))}${end}`;
    expect(parse(reply, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants weather.' },
      { type: 'text', text: 'Checking both.' },
      call('get_weather', { city: 'Paris', unit: 'celsius' }),
      call('search_web', { query: '東京 "today"', max_results: 5 }),
    ]);
  });

  it('reads object, array, boolean and null arguments as JSON, a string that looks like a number as a string, and a json block', () => {
    expect(
      parse(
        tools(
          k3Call(
            'create_event',
            1,
            argument('title', 'string', '42'),
            argument('attendees', 'array', '["a@example.com"]'),
            argument('options', 'object', '{"remind": true}'),
          ),
        ),
      ),
    ).toEqual([call('create_event', { title: '42', attendees: ['a@example.com'], options: { remind: true } })]);
    expect(parse(tools(k3Call('get_weather', 1, '<|open|>json type="object"<|sep|>{"city": "Oslo"}<|close|>json<|sep|>')))).toEqual([
      call('get_weather', { city: 'Oslo' }),
    ]);
    expect(parse(tools(k3Call('get_time', 1)))).toEqual([call('get_time', {})]);
  });

  it('keeps values as written (only attributes are escaped) and the section end inside a value', () => {
    expect(
      parse(
        tools(k3Call('write_file', 1, argument('path', 'string', 'a.txt'), argument('content', 'string', 'x <|close|>tools<|sep|> y'))),
      ),
    ).toEqual([call('write_file', { path: 'a.txt', content: 'x <|close|>tools<|sep|> y' })]);
    expect(
      parse(
        tools(
          `<|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Tom &amp; Jerry<|close|>argument<|sep|><|close|>call<|sep|>`,
        ),
      ),
    ).toEqual([call('get_weather', { city: 'Tom &amp; Jerry' })]);
  });

  it('reads a reply with thinking off (the template opened the response channel)', () => {
    expect(parse(`Paris is sunny.<|close|>response<|sep|>${end}`)).toEqual([{ type: 'text', text: 'Paris is sunny.' }]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed calls', () => {
    expect(
      parse(
        `<|open|>tools<|sep|><|open|>call tool="search_web" index="1"<|sep|>${argument('query', 'string', 'x')}<|open|>argument key="max_results" type="number"<|sep|>1`,
      ),
    ).toMatchObject([{ type: 'tool-call-unparsed', format: 'kimi-k3', reason: 'unclosed' }]);
    expect(parse(tools(k3Call('delete_all_files', 1)))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(tools(k3Call('get_weather', 1, 'city=Paris')))).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(parse(tools(k3Call('get_weather', 1, argument('days', 'number', 'three'))))).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['Kimi writes <|open|> tags.', 'a <|clo b', 'tools<|sep|> alone'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), tools(k3Call('search_web', 1, argument('query', 'string', 'x')))),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'kimi-k3',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<|open|>think<|sep|>maybe ${tools(k3Call('get_time', 1))}<|close|>think<|sep|>${response('Ok.')}${tools(k3Call('get_weather', 1, argument('city', 'string', 'Paris')), k3Call('get_time', 2))}${end}`,
    tools(k3Call('write_file', 1, argument('path', 'string', 'a'), argument('content', 'string', '<|close|>tools<|sep|> </think>'))),
    `${tools(k3Call('nope', 1))}<|open|>tools<|sep|><|open|>call tool="get_ti`,
  ],
  fragments: [
    '<|open|>tools<|sep|>',
    '<|close|>tools<|sep|>',
    '<|close|>think<|sep|>',
    response('Hi.'),
    k3Call('get_time', 1),
    argument('city', 'string', 'Rome'),
    end,
  ],
});
