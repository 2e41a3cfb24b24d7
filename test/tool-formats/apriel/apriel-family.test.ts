import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const format = registry.get('apriel')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

const reasoned =
  'The user wants the time in UTC.\nI should call get_time.\n[BEGIN FINAL RESPONSE]\nChecking the clock.\n<tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>\n[END FINAL RESPONSE]';

testFamilyContract(format);

describe('apriel: rendering', () => {
  it('renders tools in the words of the Apriel 1.6 template', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "You are provided with function signatures within <available_tools></available_tools> XML tags.
      You may call one or more functions to assist with the user query.
      Don't make assumptions about the arguments. You should infer the argument values from previous user responses and the system message.
      Here are the available tools:

      <available_tools>
      {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
      </available_tools>

      Return all function calls as a list of JSON objects within <tool_calls></tool_calls> XML tags.
      Each JSON object should contain a function name and arguments as follows:
      <tool_calls>[{"name": <function-name-1>, "arguments": <args-dict-1>}, {"name": <function-name-2>, "arguments": <args-dict-2>},...]</tool_calls>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>
      - get_weather
      <tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}]</tool_calls>

      Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags."
    `);
    // History is written as Jamba writes it: one <tool_calls> list per turn, <tool_response> results.
    expect(historyTranscript(format)).toBe(historyTranscript(registry.get('jamba')!));
  });
});

describe('apriel: parsing', () => {
  it('reads a reply that starts inside reasoning (the 1.6 template opened it) up to [BEGIN FINAL RESPONSE]', () => {
    expect(parse(reasoned, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants the time in UTC.\nI should call get_time.' },
      { type: 'text', text: '\nChecking the clock.\n' },
      call('get_time', {}),
      { type: 'text', text: '\n' },
    ]);
  });

  it('reads the reasoning opener when the model writes it itself', () => {
    expect(parse(`Here are my reasoning steps:\n${reasoned}`)).toEqual(parse(reasoned, { startsInReasoning: true }));
  });

  it('without an opener, keeps the reasoning as text but drops the markers and still reads the calls', () => {
    expect(parse(reasoned)).toEqual([
      { type: 'text', text: 'The user wants the time in UTC.\nI should call get_time.\n\nChecking the clock.\n' },
      call('get_time', {}),
      { type: 'text', text: '\n' },
    ]);
  });

  it("keeps the markers as text in other families' parsers", () => {
    const prose = 'Here are my reasoning steps: none. [BEGIN FINAL RESPONSE] ok [END FINAL RESPONSE]';
    expect(expectChunkingInvariant(() => registry.get('jamba')!.createParser(standardTools), prose)).toEqual([
      { type: 'text', text: prose },
    ]);
  });

  it('reads several calls with unicode and nested arguments, rejects unknown tools, reports a cut-off list', () => {
    expect(
      parse(
        '<tool_calls>[{"name": "search_web", "arguments": {"query": "café ☕ near [Paris]", "max_results": 3}}, {"name": "read_file", "arguments": {"path": "a/b.md", "start_line": 2}}]</tool_calls>',
      ),
    ).toEqual([
      call('search_web', { query: 'café ☕ near [Paris]', max_results: 3 }),
      call('read_file', { path: 'a/b.md', start_line: 2 }),
    ]);
    expect(parse('[BEGIN FINAL RESPONSE]<tool_calls>[{"name": "drop_table", "arguments": {}}]</tool_calls>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    const cut = '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Ro';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'apriel', text: cut, reason: 'unclosed' }]);
  });
});

testChunkingInvariance({
  name: 'apriel',
  createParser: () => format.createParser(standardTools, { startsInReasoning: true }),
  samples: [reasoned, `Here are my reasoning steps:\n${reasoned}`],
  fragments: [
    'Here are my reasoning steps:',
    '[BEGIN FINAL RESPONSE]',
    '[END FINAL RESPONSE]',
    '<tool_calls>',
    '</tool_calls>',
    '[{"name": "get_weather", "arguments": {"city": "Rome"}}]',
    '[{"name": "get_wea',
  ],
});

testChunkingInvariance({
  name: 'apriel (reply not starting in reasoning)',
  createParser: () => format.createParser(standardTools),
  samples: [reasoned],
  fragments: [
    'Here are my reasoning steps:',
    '[BEGIN FINAL RESPONSE]',
    '[END FINAL RESPONSE]',
    '<tool_calls>',
    '</tool_calls>',
    '[{"name": "get_time", "arguments": {}}]',
  ],
  numRuns: 150,
});
