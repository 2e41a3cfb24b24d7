import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('jamba');

testFamilyTable(format);

describe('jamba: rendering', () => {
  it("renders tools as JSON lines and a turn's calls as one <tool_calls> list", () => {
    expect(format.renderTools([documentedWeather], { type: 'required' })).toMatchInlineSnapshot(`
      "# Tools

      You can call the following functions, declared in JSON:

      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}

      To call functions, reply with one list of JSON objects, one per call, each with the function name and its arguments, inside <tool_calls></tool_calls> tags:
      <tool_calls>[{"name": <function-name>, "arguments": <args-json-object>}]</tool_calls>
      Put all calls of the turn in the one list. When no function is needed, answer directly.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>
      - get_weather
      <tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}]</tool_calls>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });
});

describe('jamba: parsing', () => {
  it('reads one list of several calls with text before it, nested and unicode arguments', () => {
    const reply =
      'I will look both up.\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Tel Aviv"}}, {"name": "create_event", "arguments": {"title": "שלום 👋", "attendees": [], "options": {"remind": false, "minutes": 0}}}]</tool_calls>';
    expect(parse(reply)).toEqual([
      { type: 'text', text: 'I will look both up.\n' },
      call('get_weather', { city: 'Tel Aviv' }),
      call('create_event', { title: 'שלום 👋', attendees: [], options: { remind: false, minutes: 0 } }),
    ]);
  });

  it('reads the list when a server stripped <tool_calls> as a special token: a bare call list on its own line', () => {
    expect(parse('Checking.\n[{"name": "get_weather", "arguments": {"city": "Haifa"}}, {"name": "get_time", "arguments": {}}]')).toEqual([
      { type: 'text', text: 'Checking.\n' },
      call('get_weather', { city: 'Haifa' }),
      call('get_time', {}),
    ]);
  });

  it('keeps the calls it can make when one element names an unknown tool, and reports that one', () => {
    expect(parse('<tool_calls>[{"name": "get_time", "arguments": {}}, {"name": "launch", "arguments": {}}]</tool_calls>')).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });

  it('never surfaces a cut-off list', () => {
    const cut = '<tool_calls>[{"name": "get_time", "arguments": {}}, {"name": "get_weather", "arguments": {"ci';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'jamba', text: cut, reason: 'unclosed' }]);
  });

  it('is read the same way by the other <tool_calls> families', () => {
    const reply = '<tool_calls>[{"name": "read_file", "arguments": {"path": "</tool_calls>.md"}}]</tool_calls>';
    for (const family of ['jamba', 'hunyuan', 'apriel', 'minimax-m1', 'hermes']) {
      expect(
        expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), reply),
        family,
      ).toEqual([call('read_file', { path: '</tool_calls>.md' })]);
    }
  });
});
