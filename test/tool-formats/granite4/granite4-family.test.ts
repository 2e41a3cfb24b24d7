import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { historyTranscript } from '../helpers/family-contract.js';
import { documentedWeather } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('granite4');

testFamilyTable(format);

describe('granite4: rendering', () => {
  it('renders tools in the words of the Granite 4.0 template', () => {
    expect(format.renderTools([documentedWeather], { type: 'tool', name: 'get_weather' })).toMatchInlineSnapshot(`
      "You are a helpful assistant with access to the following tools. You may call one or more tools to assist with the user query.

      You are provided with function signatures within <tools></tools> XML tags:
      <tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      </tools>

      For each tool call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
      <tool_call>
      {"name": <function-name>, "arguments": <args-json-object>}
      </tool_call>. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <tool_call>
      {"name": "get_weather", "arguments": {"city": "Paris"}}
      </tool_call>
      - get_weather
      <tool_call>
      {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}
      </tool_call>

      Tool results come back to you in the next user turn, each inside <tool_response></tool_response> XML tags. When no tool is needed, answer directly.

      You must call the tool "get_weather" in this reply; do not answer without calling it."
    `);
  });

  it('renders history as Hermes-style blocks', () => {
    // History is Hermes' own form.
    expect(historyTranscript(format)).toBe(historyTranscript(createToolFormatRegistry().get('hermes')!));
  });
});

describe('granite4: parsing', () => {
  it('reads <tool_call> blocks with text around them, several in a row, nested and unicode arguments', () => {
    const reply =
      'Let me check both.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Kraków"}}\n</tool_call>\n<tool_call>\n{"name": "create_event", "arguments": {"title": "Sync {weekly} ✅", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}}\n</tool_call>';
    expect(parse(reply)).toEqual([
      { type: 'text', text: 'Let me check both.\n' },
      call('get_weather', { city: 'Kraków' }),
      { type: 'text', text: '\n' },
      call('create_event', { title: 'Sync {weekly} ✅', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } }),
    ]);
  });

  it('reports a cut-off block', () => {
    const cut = '<tool_call>\n{"name": "search_web", "arguments": {"query": "gran';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'granite4', text: cut, reason: 'unclosed' }]);
  });
});
