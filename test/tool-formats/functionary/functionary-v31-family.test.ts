import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('functionary-v31')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('functionary-v31: rendering', () => {
  it('renders the tools and the call format in the words of the v3.1 template', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "You have access to the following functions:

      Use the function 'get_weather' to 'Get the current weather for a city.'
      {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}

      Think very carefully before calling functions.
      If a you choose to call a function ONLY reply in the following format:
      <{start_tag}={function_name}>{parameters}{end_tag}
      where

      start_tag => \`<function\`
      parameters => a JSON dict with the function argument name as key and function argument value as value.
      end_tag => \`</function>\`

      Here is an example,
      <function=example_function_name>{"example_name": "example_value"}</function>

      Reminder:
      - Function calls MUST follow the specified format, start with <function= and end with </function>
      - Required parameters MUST be specified
      - Put the entire function call reply on one line

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <function=get_weather>{"city": "Paris"}</function>
      - get_weather
      <function=get_weather>{"city": "Oslo", "unit": "celsius"}</function>

      Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}."
    `);
  });

  it('renders calls as consecutive <function=…> tags', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <function=get_weather>{"city": "Oslo"}</function><function=get_time>{}</function>
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('functionary-v31: parsing', () => {
  it('reads one or several <function=NAME>{…}</function> calls, with text before them', () => {
    expect(parse('Checking.\n<function=get_weather>{"city": "Paris"}</function><function=get_time>{}</function>')).toEqual([
      { type: 'text', text: 'Checking.\n' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
  });

  // The body starts with the name, not with JSON, so an end tag inside a string still ends it (as for
  // llama3's registration of the same tag): the lead knows.
  it('keeps unicode and nested arguments', () => {
    expect(parse('<function=create_event>{"title": "日本語 {x} <b>", "options": {"remind": true}}</function>')).toEqual([
      call('create_event', { title: '日本語 {x} <b>', options: { remind: true } }),
    ]);
  });

  it('reports cut-off calls as unparsed and rejects unknown tools', () => {
    expect(parse('<function=get_weather>{"city": "Pa')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    expect(parse('<function=rm_rf>{}</function>')).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'functionary-v31',
  createParser: () => format.createParser(standardTools),
  samples: [
    'Sure.<function=get_weather>{"city": "Paris"}</function>\n<function=get_time>{}</function>',
    '<function=nope>{}</function><function=get_ti',
  ],
  fragments: ['<function=', '</function>', 'get_time>{}', '<function=search_web>{"query": "a < b"}</function>'],
});
