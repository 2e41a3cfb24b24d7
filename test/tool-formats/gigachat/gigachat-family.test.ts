import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('gigachat')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
/** GigaChat 3: the assistant's message ends, then the `function call` role holds the JSON. */
const v3Call = (json: string) => `<|message_sep|>\n\nfunction call<|role_sep|>\n${json}`;
/** GigaChat 3.1's own token. */
const v31Call = (json: string) => `<|function_call|>${json}`;

testFamilyContract(format);

describe('gigachat: rendering', () => {
  it('renders tools as the template’s TypeScript namespace', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "\`function descriptions\`
      Function descriptions in TypeScript format. A function is a special tool (or a set of instructions) that the assistant can call to perform specific actions, computations, or obtain data needed to solve the user's task.

      namespace functions {
      // Get the current weather for a city.
      type get_weather = (_: {
      // City name
      city: string,
      unit?: "celsius" | "fahrenheit",
      }) => any;
      // Search the web and return the top results.
      type search_web = (_: {
      query: string,
      max_results?: number,
      }) => any;
      } // namespace functions

      \`function call\`
      The function that \`assistant\` calls based on the dialog context, and its arguments. To call a function, end your message and write:
      function call<|role_sep|>
      {"name": "function_name", "arguments": {"argument": "value"}}

      Only call those functions that are described in \`function descriptions\`. Fill in function arguments using information from the dialog context. If a required argument is missing from the context, ask the user for the missing data before calling the function.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      function call<|role_sep|>
      {"name": "get_weather", "arguments": {"city": "Paris"}}
      - get_weather
      function call<|role_sep|>
      {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}

      \`function result\`
      The results of your function calls come back to you in the next user turn as JSON objects: {"name": function name, "output": result}."
    `);
  });

  it('renders history with the function call role', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      function call<|role_sep|>
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      function call<|role_sep|>
      {"name": "get_time", "arguments": {}}
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('gigachat: parsing', () => {
  it('reads the GigaChat 3 role form, dropping the message separator before it', () => {
    expect(parse(`Сейчас проверю.${v3Call('{"name": "get_weather", "arguments": {"city": "Москва"}}')}`)).toEqual([
      { type: 'text', text: 'Сейчас проверю.\n\n' },
      call('get_weather', { city: 'Москва' }),
    ]);
  });

  it('reads the GigaChat 3.1 token form, with the end-of-sequence token after it', () => {
    expect(parse(`${v31Call('{"name": "search_web", "arguments": {"query": "погода", "max_results": 3}}')}</s>`)).toEqual([
      call('search_web', { query: 'погода', max_results: 3 }),
    ]);
  });

  it('keeps nested arguments and markers inside strings', () => {
    expect(parse(v31Call('{"name": "write_file", "arguments": {"path": "a", "content": "<|message_sep|> and </s> {x}"}}'))).toEqual([
      call('write_file', { path: 'a', content: '<|message_sep|> and </s> {x}' }),
    ]);
    expect(parse(v3Call('{"name": "create_event", "arguments": {"title": "x", "options": {"remind": true}}}'))).toEqual([
      { type: 'text', text: '\n\n' },
      call('create_event', { title: 'x', options: { remind: true } }),
    ]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools', () => {
    expect(parse(v31Call('{"name": "search_web", "arguments": {"query": "ha'))).toMatchObject([
      { type: 'tool-call-unparsed', format: 'gigachat', reason: 'unclosed' },
    ]);
    expect(parse(v31Call('{"name": "delete_all_files", "arguments": {}}'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(parse(v31Call('call the weather tool please'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['A function call needs a role.', 'Use <|role_sep|> after the role.'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), v31Call('{"name": "search_web", "arguments": {}}')),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'gigachat',
  createParser: () => format.createParser(standardTools),
  samples: [
    `Checking.${v3Call('{"name": "get_weather", "arguments": {"city": "Kazan"}}')}`,
    `${v31Call('{"name": "write_file", "arguments": {"path": "a", "content": "</s> <|function_call|>"}}')}</s>`,
    `${v31Call('{"name": "nope", "arguments": {}}')}\n${v31Call('{"name": "get_ti')}`,
  ],
  fragments: [
    '<|message_sep|>',
    'function call<|role_sep|>',
    '<|function_call|>',
    '</s>',
    '{"name": "get_time", "arguments": {}}',
    v31Call('{"name": "get_weather", "arguments": {"city": "Rome"}}'),
  ],
});
