import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { conversation, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('generic-json')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('generic-json: rendering', () => {
  it('renders tools with a tool_call fence template', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "You have access to the following tools:

      - get_weather: Get the current weather for a city.
        Parameters (JSON Schema): {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}
      - search_web: Search the web and return the top results.
        Parameters (JSON Schema): {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}

      To call a tool, reply with a fenced tool_call block holding one JSON object with the tool name and its arguments:
      \`\`\`tool_call
      {"name": "tool_name", "arguments": {"argument_name": "value"}}
      \`\`\`
      Write one block per call; several blocks call several tools. When no tool is needed, answer in plain text. Never invent tool results.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      \`\`\`tool_call
      {"name": "get_weather", "arguments": {"city": "Paris"}}
      \`\`\`
      - get_weather
      \`\`\`tool_call
      {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}
      \`\`\`

      Tool results come back to you in the next user turn, each in a fenced tool_response block."
    `);
  });

  it('renders history with tool_response fences', () => {
    expect(format.renderHistory(conversation).slice(2, 4)).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "text": "Two tools.",
              "type": "reasoning",
            },
            {
              "text": "Checking.
      \`\`\`tool_call
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      \`\`\`
      \`\`\`tool_call
      {"name": "get_time", "arguments": {}}
      \`\`\`",
              "type": "text",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "text": "\`\`\`tool_response
      {"name": "get_weather", "output": "-3 C, snow"}
      \`\`\`
      \`\`\`tool_response
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      \`\`\`",
              "type": "text",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });
});

describe('generic-json: parsing', () => {
  it('reads ```tool_call fences', () => {
    expect(parse('```tool_call\n{"name": "get_time", "arguments": {}}\n```')).toEqual([call('get_time', {})]);
    expect(
      parse(
        'Two calls:\n```tool_call\n{"name": "get_time", "arguments": {}}\n```\n```tool_calls\n[{"name": "get_weather", "arguments": {"city": "Nice"}}]\n```',
      ),
    ).toEqual([
      { type: 'text', text: 'Two calls:\n' },
      call('get_time', {}),
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Nice' }),
    ]);
  });

  it('reads ```json fences, arrays, wrappers and the OpenAI shape when they call offered tools', () => {
    expect(parse('```json\n[{"name": "get_weather", "arguments": {"city": "Nice"}}, {"name": "get_time", "arguments": {}}]\n```')).toEqual([
      call('get_weather', { city: 'Nice' }),
      call('get_time', {}),
    ]);
    expect(parse('{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}')).toEqual([
      { type: 'tool-call', name: 'get_time', arguments: '{}', id: 'call_1' },
    ]);
    expect(parse('{"tool_call": {"name": "get_weather", "arguments": {"city": "Oran"}}}')).toEqual([call('get_weather', { city: 'Oran' })]);
  });

  it('keeps JSON answers untouched, byte for byte', () => {
    for (const text of [
      '```json\n{"name": "Alice", "age": 31}\n```',
      '{"response": "Hello"}',
      '```json\n{"name": "get_weather", "population": 3}\n```',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });

  it('rejects unknown tools inside a tool_call fence', () => {
    expect(parse('Ok.\n```tool_call\n{"name": "format_disk", "arguments": {}}\n```')).toMatchObject([
      { type: 'text', text: 'Ok.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool', text: '```tool_call\n{"name": "format_disk", "arguments": {}}\n```' },
    ]);
  });

  it('reports a cut-off tool_call fence as unclosed', () => {
    expect(parse('```tool_call\n{"name": "get_weather", "arguments": {"ci')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'generic-json', reason: 'unclosed' },
    ]);
  });
});

testChunkingInvariance({
  name: 'generic-json',
  createParser: () => format.createParser(standardTools),
  samples: [
    'Two calls:\n```tool_call\n{"name": "get_time", "arguments": {}}\n```\n```json\n{"name": "Alice"}\n```',
    '```json\n[{"name": "get_weather", "arguments": {"city": "```"}}]\n```',
    '{"tool_calls": [{"name": "get_time", "arguments": {}}]}\nDone.',
  ],
  fragments: [
    '```tool_call\n',
    '```json\n',
    '```',
    '{"name": "get_time", "arguments": {}}',
    '{"name": "Bob", "age": 3}',
    '[{"name": "get_time"}]',
    '```python\nprint(1)\n```',
  ],
});
