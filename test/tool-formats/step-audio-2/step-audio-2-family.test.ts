/** The step-audio-2 family: `<tool_call>function\nNAME\n{…}</tool_call>` blocks. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('step-audio-2');

testFamilyTable(format);

const block = (name: string, json = '') => `<tool_call>function\n${name}\n${json}</tool_call>`;

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

  it('reports a cut-off call as unparsed', () => {
    expect(parse('<tool_call>function\nsearch_web\n{"query": "ha')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
  });
});
