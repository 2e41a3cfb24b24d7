import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('minimax-m2')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const parseWith = (tools: ToolDefinition[], text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

const searchTagged: ToolDefinition = {
  name: 'search_web',
  description: 'Search function.',
  parameters: {
    type: 'object',
    properties: {
      query_list: { type: 'array', items: { type: 'string' } },
      query_tag: { type: 'array', items: { type: 'string' } },
      limit: { type: 'integer' },
      exact: { type: 'boolean' },
      code: { type: 'string' },
    },
  },
};

testFamilyContract(format);

describe('minimax-m2: rendering', () => {
  it('renders tools and calls in the layout of the MiniMax-M2 template', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools
      You may call one or more tools to assist with the user query.
      Here are the tools available in JSONSchema format:

      <tools>
      <tool>{"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}</tool>
      </tools>

      When making tool calls, use XML format to invoke tools and pass parameters:
      <minimax:tool_call>
      <invoke name="tool-name-1">
      <parameter name="param-key-1">param-value-1</parameter>
      <parameter name="param-key-2">param-value-2</parameter>
      ...
      </invoke>
      </minimax:tool_call>
      Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Put several invokes in one block to call several tools.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <minimax:tool_call>
      <invoke name="get_weather">
      <parameter name="city">Paris</parameter>
      </invoke>
      </minimax:tool_call>
      - get_weather
      <minimax:tool_call>
      <invoke name="get_weather">
      <parameter name="city">Oslo</parameter>
      <parameter name="unit">celsius</parameter>
      </invoke>
      </minimax:tool_call>

      Tool results come back to you in the next user turn, each inside <response></response> tags."
    `);
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <minimax:tool_call>
      <invoke name="get_weather">
      <parameter name="city">Oslo</parameter>
      </invoke>
      <invoke name="get_time">
      </invoke>
      </minimax:tool_call>
      [user] <response>-3 C, snow</response>
      <response>Error: error: clock unavailable</response>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });

  it('pads a value that starts and ends with a newline, so that it reads back unchanged', () => {
    const rendered = format.renderCall({ name: 'write_file', arguments: JSON.stringify({ path: '7', content: '\nline\n' }) });
    expect(rendered).toContain('<parameter name="content">\n\nline\n\n</parameter>');
    expect(parse(rendered)).toEqual([call('write_file', { path: '7', content: '\nline\n' })]);
  });
});

describe('minimax-m2: parsing', () => {
  it("reads the tool-calling guide's two invokes in one block, typing values by the schema", () => {
    const reply =
      'Let me search.\n<minimax:tool_call>\n<invoke name="search_web">\n<parameter name="query_tag">["technology", "events"]</parameter>\n<parameter name="query_list">["\\"OpenAI\\" \\"latest\\" \\"release\\""]</parameter>\n</invoke>\n<invoke name="search_web">\n<parameter name="query_tag">["technology", "events"]</parameter>\n<parameter name="query_list">["\\"Gemini\\" \\"latest\\" \\"release\\""]</parameter>\n<parameter name="limit">5</parameter>\n<parameter name="exact">false</parameter>\n<parameter name="code">0042</parameter>\n</invoke>\n</minimax:tool_call>';
    expect(parseWith([searchTagged], reply)).toEqual([
      { type: 'text', text: 'Let me search.\n' },
      call('search_web', { query_tag: ['technology', 'events'], query_list: ['"OpenAI" "latest" "release"'] }),
      call('search_web', {
        query_tag: ['technology', 'events'],
        query_list: ['"Gemini" "latest" "release"'],
        limit: 5,
        exact: false,
        code: '0042',
      }),
    ]);
  });

  it('reads a reply that starts inside reasoning (the template opened <think>), single-quoted names, and values on their own lines', () => {
    const content = 'def main():\n    print("</minimax:tool_call>")\n';
    const reply = `The user wants a file.\n</think>\n\n<minimax:tool_call>\n<invoke name='write_file'>\n<parameter name='path'>main.py</parameter>\n<parameter name="content">\n${content}\n</parameter>\n</invoke>\n</minimax:tool_call>`;
    expect(parse(reply, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants a file.' },
      { type: 'text', text: '\n\n' },
      call('write_file', { path: 'main.py', content }),
    ]);
  });

  it('rejects unknown tools and unreadable sections without leaking the markup', () => {
    const unknown = parse('<minimax:tool_call>\n<invoke name="delete_everything">\n</invoke>\n</minimax:tool_call>');
    expect(unknown).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(textOf(unknown)).toBe('');
    const malformed = [
      '<minimax:tool_call>\nget_weather city=Paris\n</minimax:tool_call>',
      '<minimax:tool_call>\n<invoke name="get_weather">\ncity: Paris\n</invoke>\n</minimax:tool_call>',
    ];
    for (const reply of malformed) expect(parse(reply), reply).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
    // A value never closed holds the rest of the reply (its closers may be code): reported, not read.
    const unclosedValue = '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris\n</invoke>\n</minimax:tool_call>';
    expect(parse(unclosedValue)).toEqual([{ type: 'tool-call-unparsed', format: 'minimax-m2', text: unclosedValue, reason: 'unclosed' }]);
  });

  it('never surfaces a cut-off call', () => {
    const cutOffs = [
      '<minimax:tool_call>\n<invoke name="get_wea',
      '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Par',
      // Nothing but </invoke> marks the last parameter: more may have been coming.
      '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n',
    ];
    for (const reply of cutOffs)
      expect(parse(`On it.\n${reply}`), reply).toEqual([
        { type: 'text', text: 'On it.\n' },
        { type: 'tool-call-unparsed', format: 'minimax-m2', text: reply, reason: 'unclosed' },
      ]);
  });

  it("keeps a section's complete calls when the reply stops inside a later one, and reports that one", () => {
    const reply = '<minimax:tool_call>\n<invoke name="get_time">\n</invoke>\n<invoke name="get_weather">\n<parameter name="city">Os';
    expect(parse(reply)).toMatchObject([call('get_time', {}), { type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });
});

testChunkingInvariance({
  name: 'minimax-m2',
  createParser: () => format.createParser(standardTools),
  samples: [
    '<think>\nplan\n</think>\n<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Rome</parameter>\n</invoke>\n</minimax:tool_call>',
    '<minimax:tool_call><invoke name="write_file"><parameter name="path">a</parameter><parameter name="content"></minimax:tool_call> <invoke name="x"></parameter></invoke></minimax:tool_call>after',
  ],
  fragments: [
    '<minimax:tool_call>',
    '</minimax:tool_call>',
    '<invoke name="get_time">',
    '</invoke>',
    '<parameter name="city">',
    '</parameter>',
    'Rome',
    '<think>',
    '</think>',
  ],
});
