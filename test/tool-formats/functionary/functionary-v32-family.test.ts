import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const format = registry.get('functionary-v32')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const parseAs = (family: string, text: string) => expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('functionary-v32: rendering', () => {
  it("renders the tools as the template's TypeScript namespace", () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "You are capable of executing available function(s) if required.
      Only execute function(s) when absolutely necessary.
      Ask for the required input to:recipient==all
      Use JSON for function arguments.
      Respond in this format:
      >>>\${recipient}
      \${content}

      Available functions:
      // Supported function definitions that should be called when necessary.
      namespace functions {

      // Get the current weather for a city.
      type get_weather = (_: {
      // City name
      city: string,
      unit?: "celsius" | "fahrenheit",
      }) => any;

      } // namespace functions

      Write >>>all and a new line before text for the user; write >>> with the function name and a new line before the JSON arguments of each call.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      >>>get_weather
      {"city": "Paris"}
      - get_weather
      >>>get_weather
      {"city": "Oslo", "unit": "celsius"}

      Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}."
    `);
  });

  it('renders calls as >>> recipient lines', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      >>>get_weather
      {"city": "Oslo"}>>>get_time
      {}
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('functionary-v32: parsing', () => {
  it("reads the reply as following the template's >>>: a first recipient without the marker", () => {
    expect(parse('get_weather\n{"city": "Paris"}')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('all\nHello! How can I help?')).toEqual([{ type: 'text', text: 'Hello! How can I help?' }]);
  });

  it('reads text for the user and then calls, each after its own >>>', () => {
    expect(parse('all\nLet me check.>>>get_weather\n{"city": "Paris"}>>>get_time\n{}')).toEqual([
      { type: 'text', text: 'Let me check.' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    // A model that writes the first marker itself (no template prefix) reads the same.
    expect(parse('>>>all\nHi>>>get_time\n{}')).toEqual([{ type: 'text', text: 'Hi' }, call('get_time', {})]);
  });

  it('keeps unicode, nesting and >>> inside strings', () => {
    expect(parse('create_event\n{"title": ">>>all\\n 🗓️ {x}", "options": {"remind": true}}')).toEqual([
      call('create_event', { title: '>>>all\n 🗓️ {x}', options: { remind: true } }),
    ]);
  });

  it('reads replies that ignore the format as text, and bare JSON calls', () => {
    expect(parse('Sure, here you go.')).toEqual([{ type: 'text', text: 'Sure, here you go.' }]);
    // Without a written >>>, a first line naming no offered tool is the answer, as bare JSON would be.
    expect(parse('Totals\n{"apples": 3}\nDone.')).toEqual([{ type: 'text', text: 'Totals\n{"apples": 3}\nDone.' }]);
    expect(parse('>>>Totals\n{"apples": 3}')).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse('{"name": "get_time", "arguments": {}}')).toEqual([call('get_time', {})]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools', () => {
    expect(parse('all\nOK>>>get_weather\n{"city": "Pa')).toMatchObject([
      { type: 'text', text: 'OK' },
      { type: 'tool-call-unparsed', format: 'functionary-v32', reason: 'unclosed' },
    ]);
    expect(parse('>>>rm_rf\n{}')).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

describe("functionary-v32: >>> in other families' replies", () => {
  it('keeps Python prompts and quote markers as text', () => {
    for (const text of ['Try it:\n>>> print(1)\n1\n>>>', 'a >>> b', '>>>>>> nested quote', 'ends with >>', '>>>get_weather then prose']) {
      expect(parseAs('hermes', text)).toEqual([{ type: 'text', text }]);
    }
  });

  // `>>>` opens like prose (a Python prompt, a quote), so it is no fallback marker for other families
  // (fallback-markers.ts): only Functionary v3.2's own parser reads it as a recipient.
  it('leaves a recipient call to the own family', () => {
    expect(parseAs('hermes', 'OK.\n>>>get_time\n{}')).toEqual([{ type: 'text', text: 'OK.\n>>>get_time\n{}' }]);
  });
});

testChunkingInvariance({
  name: 'functionary-v32',
  createParser: () => format.createParser(standardTools),
  samples: [
    'all\nLet me check.>>>get_weather\n{"city": "Paris"}>>>get_time\n{}',
    'search_web\n{"query": ">>> x"}\n>>>all\nDone.',
    '>>> print(1)\n>>>get_wea',
  ],
  fragments: ['>>>', '>>>all\n', 'all\n', 'get_time\n{}', '>>>search_web\n{"query": "a"}', '>>> print(1)', '>', '>>'],
});
