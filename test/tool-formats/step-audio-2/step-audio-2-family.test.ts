/** The step-audio-2 family: `<tool_call>function\nNAME\n{…}</tool_call>` blocks. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('step-audio-2')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const block = (name: string, json = '') => `<tool_call>function\n${name}\n${json}</tool_call>`;

testFamilyContract(format);

describe('step-audio-2: rendering', () => {
  it('renders history with one block per call and Hermes’ tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <tool_call>function
      get_weather
      {"city": "Oslo"}</tool_call>
      <tool_call>function
      get_time
      {}</tool_call>
      [user] <tool_response>
      -3 C, snow
      </tool_response>
      <tool_response>
      Error: error: clock unavailable
      </tool_response>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('step-audio-2: parsing', () => {
  it('reads text then several blocks; Hermes’ JSON in the same tags still reads', () => {
    expect(
      parse(`我查一下。${block('get_weather', '{"city": "上海"}')}\n${block('search_web', '{"query": "上海 天气", "max_results": 3}')}`),
    ).toEqual([
      { type: 'text', text: '我查一下。' },
      call('get_weather', { city: '上海' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: '上海 天气', max_results: 3 }),
    ]);
    expect(parse('<tool_call>{"name": "get_time", "arguments": {}}</tool_call>')).toEqual([call('get_time', {})]);
  });

  it('reads a call without arguments and nested arguments', () => {
    expect(parse(block('get_time'))).toEqual([call('get_time', {})]);
    expect(parse(block('create_event', '{"title": "x", "options": {"remind": true}}'))).toEqual([
      call('create_event', { title: 'x', options: { remind: true } }),
    ]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed calls', () => {
    expect(parse('<tool_call>function\nsearch_web\n{"query": "ha')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    expect(parse(block('delete_all_files', '{}'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(block('get_weather', 'city=Paris'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['function\nget_time\n{}', 'a function b']) expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), block('search_web', '{"query": "x"}'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'step-audio-2',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${block('get_time')}</think>${block('get_weather', '{"city": "Paris"}')}`,
    `${block('nope', '{}')}<tool_call>function\nget_ti`,
  ],
  fragments: ['<tool_call>', '</tool_call>', 'function\n', 'get_time\n', '{"city": "Rome"}', block('get_time')],
});
