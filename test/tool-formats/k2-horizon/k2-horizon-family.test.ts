/** The k2-horizon family: K2 Horizon's `<ifm|tool_calls>` sections of `<ifm|tool_call>` blocks (pairs or JSON). */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('k2-horizon')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const pair = (key: string, value: string, type?: string) =>
  `<ifm|arg_key>${key}</ifm|arg_key>${type === undefined ? '' : `<ifm|arg_type>${type}</ifm|arg_type>`}<ifm|arg_value>${value}</ifm|arg_value>`;
const block = (name: string, ...pairs: string[]) => `<ifm|tool_call>${name}\n${pairs.join('\n')}</ifm|tool_call>`;
const section = (...blocks: string[]) => `<ifm|tool_calls>${blocks.join('\n')}</ifm|tool_calls>`;

testFamilyContract(format);

describe('k2-horizon: rendering', () => {
  it('renders history with one section per turn and tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <ifm|tool_calls><ifm|tool_call>get_weather
      <ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Oslo</ifm|arg_value>
      </ifm|tool_call><ifm|tool_call>get_time
      </ifm|tool_call></ifm|tool_calls>
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

describe('k2-horizon: parsing', () => {
  it('reads text then a section of several calls, values typed by the schema', () => {
    expect(
      parse(
        `Checking both.\n${section(block('get_weather', pair('city', 'Abu Dhabi'), pair('unit', 'celsius')), block('search_web', pair('query', '42'), pair('max_results', '3')))}`,
      ),
    ).toEqual([
      { type: 'text', text: 'Checking both.\n' },
      call('get_weather', { city: 'Abu Dhabi', unit: 'celsius' }),
      call('search_web', { query: '42', max_results: 3 }),
    ]);
  });

  it('reads the xml_typed type tags, the json format and a call without arguments', () => {
    expect(parse(section(block('search_web', pair('query', 'x', 'string'), pair('max_results', '5', 'integer'))))).toEqual([
      call('search_web', { query: 'x', max_results: 5 }),
    ]);
    expect(parse(section('<ifm|tool_call>{"name": "get_weather", "arguments": {"city": "Dubai"}}</ifm|tool_call>'))).toEqual([
      call('get_weather', { city: 'Dubai' }),
    ]);
    expect(parse(section(block('get_time')))).toEqual([call('get_time', {})]);
    expect(parse(section(block('create_event', pair('title', 'x'), pair('options', '{"remind": true}'))))).toEqual([
      call('create_event', { title: 'x', options: { remind: true } }),
    ]);
  });

  it('keeps a string value as written, the section close inside it included', () => {
    expect(parse(section(block('write_file', pair('path', 'a.txt'), pair('content', '  two\n</ifm|tool_calls> lines\n'))))).toEqual([
      call('write_file', { path: 'a.txt', content: '  two\n</ifm|tool_calls> lines\n' }),
    ]);
  });

  it('reads each reasoning effort’s think tags, also when the template opened them', () => {
    expect(parse(`<ifm|think>Weather.</ifm|think>${section(block('get_weather', pair('city', 'Rome')))}`)).toEqual([
      { type: 'reasoning', text: 'Weather.' },
      call('get_weather', { city: 'Rome' }),
    ]);
    expect(parse(`<ifm|think_fast>Quick.</ifm|think_fast>Done.`)).toEqual([
      { type: 'reasoning', text: 'Quick.' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(parse(`<ifm|think_faster>Quicker.</ifm|think_faster>Done.`)).toEqual([
      { type: 'reasoning', text: 'Quicker.' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(parse(`Time.</ifm|think>${section(block('get_time'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed calls', () => {
    expect(parse(`<ifm|tool_calls><ifm|tool_call>search_web\n<ifm|arg_key>query</ifm|arg_key><ifm|arg_value>ha`)).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
    expect(parse(section(block('delete_all_files')))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(section(block('get_weather', 'city=Paris')))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['K2 writes ifm tags.', 'a <ifm| b', '<ifm|arg_key> alone']) expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), section(block('search_web', pair('query', 'x')))),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'k2-horizon',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<ifm|think>maybe ${section(block('get_time'))}</ifm|think>${section(block('get_weather', pair('city', 'Paris', 'string')), block('get_time'))}`,
    `${section(block('nope'))}<ifm|tool_calls><ifm|tool_call>get_ti`,
  ],
  fragments: [
    '<ifm|tool_calls>',
    '</ifm|tool_calls>',
    '<ifm|tool_call>',
    '</ifm|tool_call>',
    '<ifm|think_fast>',
    '</ifm|think>',
    pair('city', 'Rome'),
    block('get_time'),
  ],
});
