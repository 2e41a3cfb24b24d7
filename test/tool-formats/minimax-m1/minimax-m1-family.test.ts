import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('minimax-m1')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('minimax-m1: rendering', () => {
  it('renders tools and calls as the MiniMax-M1 tool template does', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "You are provided with these tools:

      <tools>
      {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}
      </tools>

      If you need to call tools, please respond with <tool_calls></tool_calls> XML tags, and provide tool-name and json-object of arguments, following the format below:
      <tool_calls>
      {"name": <tool-name>, "arguments": <args-json-object>}
      ...
      </tool_calls>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <tool_calls>
      {"name": "get_weather", "arguments": {"city": "Paris"}}
      </tool_calls>
      - get_weather
      <tool_calls>
      {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}
      </tool_calls>

      Tool results come back to you in the next user turn, each as a "tool name:" line and a "tool result:" line."
    `);
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <tool_calls>
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      {"name": "get_time", "arguments": {}}
      </tool_calls>
      [user] tool name: get_weather
      tool result: -3 C, snow

      tool name: get_time
      tool result: Error: error: clock unavailable
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('minimax-m1: parsing', () => {
  it("reads the function-call guide's reply: reasoning, then one call object per line", () => {
    const reply =
      '<think>\nOkay, I will search for the OpenAI and Gemini latest release.\n</think>\n<tool_calls>\n{"name": "search_web", "arguments": {"query": "\\"OpenAI\\" \\"latest\\" \\"release\\""}}\n{"name": "search_web", "arguments": {"query": "\\"Gemini\\" \\"latest\\" \\"release\\""}}\n</tool_calls>';
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: 'Okay, I will search for the OpenAI and Gemini latest release.' },
      { type: 'text', text: '\n' },
      call('search_web', { query: '"OpenAI" "latest" "release"' }),
      call('search_web', { query: '"Gemini" "latest" "release"' }),
    ]);
  });

  it('does not take calls written inside <think> for calls', () => {
    expect(
      parse('<think>I could write <tool_calls>\n{"name": "get_time", "arguments": {}}\n</tool_calls> but no.</think>It is noon.'),
    ).toEqual([
      { type: 'reasoning', text: 'I could write <tool_calls>\n{"name": "get_time", "arguments": {}}\n</tool_calls> but no.' },
      { type: 'text', text: 'It is noon.' },
    ]);
  });

  it('keeps the good lines when one names an unknown tool, rejects unreadable bodies, reports a cut-off one', () => {
    expect(parse('<tool_calls>\n{"name": "get_time", "arguments": {}}\n{"name": "reboot", "arguments": {}}\n</tool_calls>')).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(parse('<tool_calls>\nsearch: weather\n</tool_calls>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    const cut = '<tool_calls>\n{"name": "get_weather", "arguments": {"city": "Wuh';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'minimax-m1', text: cut, reason: 'unclosed' }]);
  });
});

testChunkingInvariance({
  name: 'minimax-m1',
  createParser: () => format.createParser(standardTools),
  samples: [
    '<think>\nx\n</think>\n<tool_calls>\n{"name": "get_time", "arguments": {}}\n{"name": "get_weather", "arguments": {"city": "}\\n{"}}\n</tool_calls>',
  ],
  fragments: [
    '<tool_calls>\n',
    '\n</tool_calls>',
    '{"name": "get_weather", "arguments": {"city": "Rome"}}\n',
    '{"name": "get_wea',
    '<think>',
    '</think>',
  ],
});
