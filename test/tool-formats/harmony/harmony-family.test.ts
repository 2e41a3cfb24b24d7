import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/index.js';
import { renderSchemaType } from '../../../tool-formats/shared/typescript-namespace.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { documentedWeather, getTime, getWeather, searchWeb } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('harmony');

testFamilyTable(format);

/** Enums, defaults, optionals, nullable, unions, arrays of objects and nested objects. */
const planTrip: ToolDefinition = {
  name: 'plan_trip',
  description: 'Plan a trip.\nReturns an itinerary.',
  parameters: {
    type: 'object',
    properties: {
      destination: { type: 'string', description: 'City or region' },
      mode: { type: 'string', enum: ['train', 'plane', 'car'], default: 'train', description: 'How to travel' },
      nights: { type: 'integer', default: 2 },
      travellers: {
        type: 'array',
        items: { type: 'object', properties: { name: { type: 'string' }, age: { type: ['integer', 'null'] } }, required: ['name'] },
      },
      budget: { anyOf: [{ type: 'number' }, { type: 'string', enum: ['low', 'high'] }] },
      preferences: {
        type: 'object',
        description: 'Optional extras',
        properties: {
          window_seat: { type: 'boolean', default: false },
          meals: { type: 'array', items: { type: 'string', enum: ['veg', 'vegan'] } },
          'pet-friendly': { type: 'boolean', nullable: true },
        },
      },
      notes: { type: 'string', nullable: true, default: 'none' },
      tags: { type: 'array' },
    },
    required: ['destination', 'travellers'],
  },
};

const header = (name: string) => `<|start|>assistant<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>`;

describe('harmony: rendering', () => {
  it('renders tools as the functions namespace of a Harmony developer message', () => {
    expect(format.renderTools([documentedWeather, getTime, planTrip], { type: 'required' })).toMatchInlineSnapshot(`
      "# Tools

      ## functions

      namespace functions {

      // Get the current weather for a city.
      type get_weather = (_: {
      // City name
      city: string,
      unit?: "celsius" | "fahrenheit",
      }) => any;

      // Get the current UTC time.
      type get_time = () => any;

      // Plan a trip.
      // Returns an itinerary.
      type plan_trip = (_: {
      // City or region
      destination: string,
      // How to travel
      mode?: "train" | "plane" | "car", // default: train
      nights?: number, // default: 2
      travellers: {
          name: string,
          age?: number | null,
      }[],
      budget?: number | "low" | "high",
      // Optional extras
      preferences?: {
          window_seat?: boolean, // default: false
          meals?: ("veg" | "vegan")[],
          "pet-friendly"?: boolean | null,
      },
      notes?: string | null, // default: "none"
      tags?: any[],
      }) => any;

      } // namespace functions

      Calls to these tools must go to the commentary channel: 'functions'.
      To call a function, send a message to it on the commentary channel whose content is the JSON arguments, then stop:
      <|start|>assistant<|channel|>commentary to=functions.FUNCTION_NAME <|constrain|>json<|message|>{"ARGUMENT_NAME": "value"}<|call|>
      Send one message per call. When no function is needed, answer on the final channel.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>
      - get_weather
      <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo", "unit": "celsius"}<|call|>

      Function results come back to you in the next user turn as messages from the function: <|start|>functions.FUNCTION_NAME to=assistant<|channel|>commentary<|message|>OUTPUT<|end|>

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });

  it('renders schema types the openai/harmony way', () => {
    expect(renderSchemaType({ type: 'string', enum: ['a', 'b'] }, '')).toBe('"a" | "b"');
    expect(renderSchemaType({ type: ['string', 'null'] }, '')).toBe('string | null');
    expect(renderSchemaType({ type: 'array', items: { type: 'integer' } }, '')).toBe('number[]');
    expect(renderSchemaType({ type: 'array', items: { enum: [1, 2] } }, '')).toBe('(1 | 2)[]');
    expect(renderSchemaType({ type: 'object' }, '')).toBe('object');
    expect(renderSchemaType({ const: 'fixed' }, '')).toBe('"fixed"');
    expect(renderSchemaType({ oneOf: [{ type: 'string' }, { type: 'null' }] }, '')).toBe('string | null');
    expect(renderSchemaType({}, '')).toBe('any');
  });
});

describe('harmony: parsing', () => {
  it('reads analysis as reasoning, then a call (the conformance reply)', () => {
    expect(
      parse(
        '<|channel|>analysis<|message|>User asks weather; call tool.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Seattle"}<|call|>',
      ),
    ).toEqual([{ type: 'reasoning', text: 'User asks weather; call tool.' }, call('get_weather', { city: 'Seattle' })]);
  });

  it('reads analysis, then the final channel as content without framing tokens', () => {
    const events = parse(
      '<|channel|>analysis<|message|>Simple greeting.<|end|><|start|>assistant<|channel|>final<|message|>Hi there!<|return|>',
    );
    expect(events).toEqual([
      { type: 'reasoning', text: 'Simple greeting.' },
      { type: 'text', text: 'Hi there!' },
    ]);
    expect(parse('<|start|>assistant<|channel|>final<|message|>Just text.<|end|>')).toEqual([{ type: 'text', text: 'Just text.' }]);
  });

  it('reads calls with and without <|constrain|>, and with other content types', () => {
    const expected = [call('get_weather', { city: 'Rome' })];
    expect(parse('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Rome"}<|call|>')).toEqual(expected);
    expect(parse('<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city": "Rome"}<|call|>')).toEqual(expected);
    expect(parse('<|channel|>commentary to=functions.get_weather json<|message|>{"city": "Rome"}<|call|>')).toEqual(expected);
    expect(parse('<|channel|>commentary to=functions.get_weather<|message|>{"city": "Rome"}<|call|>')).toEqual(expected);
    // A recipient without the namespace, as AbstractCore's gpt-oss fixtures have it.
    expect(parse('<|channel|>commentary to=get_weather <|constrain|>json<|message|>{"city": "Rome"}')).toEqual(expected);
  });

  it('reads a recipient in the role header', () => {
    expect(
      parse('<|start|>assistant to=functions.search_web<|channel|>commentary json<|message|>{"query": "harmony format"}<|call|>'),
    ).toEqual([call('search_web', { query: 'harmony format' })]);
    expect(parse('<|start|>assistant to=functions.get_time<|channel|>commentary <|constrain|>json<|message|>{}')).toEqual([
      call('get_time', {}),
    ]);
  });

  it('reads a call on the analysis channel, as vLLM and llama.cpp do', () => {
    expect(parse('<|channel|>analysis to=functions.get_time <|constrain|>json<|message|>{}<|call|>')).toEqual([call('get_time', {})]);
  });

  it('ends a call at <|call|>, <|end|>, <|return|>, the next message, or the end of the reply', () => {
    const body = `${header('get_time')}{}`;
    for (const end of ['<|call|>', '<|end|>', '<|return|>', '']) expect(parse(body + end)).toEqual([call('get_time', {})]);
    expect(
      parse(`${header('get_time')}{}<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Lima"}`),
    ).toEqual([call('get_time', {}), call('get_weather', { city: 'Lima' })]);
  });

  it('reads two calls in a row', () => {
    expect(
      parse(`${header('get_weather')}{"city": "Paris"}<|call|>${header('search_web')}{"query": "Louvre hours", "max_results": 3}<|call|>`),
    ).toEqual([call('get_weather', { city: 'Paris' }), call('search_web', { query: 'Louvre hours', max_results: 3 })]);
  });

  it('gives a commentary preamble to the text', () => {
    expect(
      parse(
        '<|channel|>analysis<|message|>Two lookups.<|end|><|start|>assistant<|channel|>commentary<|message|>**Plan**: check the weather, then search.<|end|>' +
          `${header('get_weather')}{"city": "Nice"}<|call|>`,
      ),
    ).toEqual([
      { type: 'reasoning', text: 'Two lookups.' },
      { type: 'text', text: '**Plan**: check the weather, then search.' },
      call('get_weather', { city: 'Nice' }),
    ]);
  });

  it('reads a reply that is only an unfinished analysis as reasoning', () => {
    expect(parse('<|channel|>analysis<|message|>partial')).toEqual([{ type: 'reasoning', text: 'partial' }]);
    expect(parse('The user wants the time.<|end|><|start|>assistant<|channel|>final<|message|>Noon.', { startsInReasoning: true })).toEqual(
      [
        { type: 'reasoning', text: 'The user wants the time.' },
        { type: 'text', text: 'Noon.' },
      ],
    );
  });

  it('drops a stray commentary header before a channel', () => {
    expect(
      parse(
        '<|channel|>commentary to=assistant<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>done',
      ),
    ).toEqual([
      { type: 'reasoning', text: 'think' },
      { type: 'text', text: 'done' },
    ]);
  });

  it('rejects unknown recipients (functions and built-in tools), keeping their markup out of the text', () => {
    const events = parse(`Sure.${header('delete_all_files')}{"confirm": true}<|call|>`);
    expect(events).toMatchObject([
      { type: 'text', text: 'Sure.' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(events)).not.toContain('delete_all_files');
    const withoutPython = () => format.createParser([getWeather, getTime]);
    expect(expectChunkingInvariant(withoutPython, '<|channel|>analysis to=python code<|message|>print(1)<|call|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });

  it("gives code sent to an offered one-parameter tool (gpt-oss's python habit) to that parameter", () => {
    expect(parse('<|channel|>analysis to=python code<|message|>import math\nprint(math.pi)<|call|>')).toEqual([
      call('python', { code: 'import math\nprint(math.pi)' }),
    ]);
    // Cut off: no call.
    expect(parse('<|channel|>analysis to=python code<|message|>print(1)')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });

  it('rejects malformed arguments and a message without content', () => {
    const malformed = parse(`${header('get_weather')}{"city": Paris!!}<|call|>`);
    expect(malformed).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
    expect(textOf(malformed)).toBe('');
  });

  it('reports a cut-off call as unclosed, never as a call', () => {
    for (const text of [
      `${header('get_weather')}{"city": "Par`,
      '<|channel|>commentary to=functions.get_wea',
      `${header('search_web')}{"query": "a", "max_results":`,
    ]) {
      expect(parse(`Checking.${text}`)).toEqual([
        { type: 'text', text: 'Checking.' },
        { type: 'tool-call-unparsed', format: 'harmony', text: text.replace('<|start|>assistant', ''), reason: 'unclosed' },
      ]);
    }
  });

  it('ignores markers inside JSON strings, and keeps nesting and unicode', () => {
    expect(
      parse(`${header('write_file')}{"path": "a.md", "content": "<|call|> <|end|> <|start|>assistant to=functions.x\\n\`\`\`"}<|call|>`),
    ).toEqual([call('write_file', { path: 'a.md', content: '<|call|> <|end|> <|start|>assistant to=functions.x\n```' })]);
    expect(
      parse(
        `${header('create_event')}{"title": "Sync 🗓️ naïve", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}<|call|>`,
      ),
    ).toEqual([call('create_event', { title: 'Sync 🗓️ naïve', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
  });

  it('repairs gpt-oss slips: the whole call object as content, raw newlines, trailing junk, Python literals', () => {
    expect(
      parse(
        `${header('write_file')}{"name": "write_file", "arguments": {"path": "main.py", "content": "line1\nline2\n"}, "call_id": null}<|call|>`,
      ),
    ).toEqual([call('write_file', { path: 'main.py', content: 'line1\nline2\n' })]);
    expect(
      parse(
        `I'll write the file.\n\n${header('write_file')}{"name":"write_file","arguments":{"path":"rtype.py","content":"print(1)"},"call_id":null},"mode":"w"}\n`,
      ),
    ).toEqual([{ type: 'text', text: "I'll write the file.\n\n" }, call('write_file', { path: 'rtype.py', content: 'print(1)' })]);
    expect(parse(`${header('create_event')}{'title': 'A', 'options': {'remind': True, 'minutes': None,},}<|call|>`)).toEqual([
      call('create_event', { title: 'A', options: { remind: true, minutes: null } }),
    ]);
  });

  it("reads calls written in other families' syntax", () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Bern"}}\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Bern' }),
    ]);
  });

  it('only makes calls to the tools of the request', () => {
    const onlyWeather = () => format.createParser([getWeather]);
    expect(expectChunkingInvariant(onlyWeather, `${header('search_web')}{"query": "x"}<|call|>`)).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(expectChunkingInvariant(() => format.createParser([searchWeb]), `${header('search_web')}{"query": "x"}<|call|>`)).toEqual([
      call('search_web', { query: 'x' }),
    ]);
  });
});
