/** The k2-horizon family: K2 Horizon's `<ifm|tool_calls>` sections of `<ifm|tool_call>` blocks (pairs or JSON). */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('k2-horizon');

testFamilyTable(format);

const pair = (key: string, value: string, type?: string) =>
  `<ifm|arg_key>${key}</ifm|arg_key>${type === undefined ? '' : `<ifm|arg_type>${type}</ifm|arg_type>`}<ifm|arg_value>${value}</ifm|arg_value>`;
const block = (name: string, ...pairs: string[]) => `<ifm|tool_call>${name}\n${pairs.join('\n')}</ifm|tool_call>`;
const section = (...blocks: string[]) => `<ifm|tool_calls>${blocks.join('\n')}</ifm|tool_calls>`;

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

  it('reports a cut-off call as unparsed', () => {
    expect(parse(`<ifm|tool_calls><ifm|tool_call>search_web\n<ifm|arg_key>query</ifm|arg_key><ifm|arg_value>ha`)).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});
