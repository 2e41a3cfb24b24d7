/** The openpangu family: openPangu's JSON call list in `<|tool_call_start|>` or `[unused11]` blocks. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('openpangu');

testFamilyTable(format);

const named = (json: string) => `<|tool_call_start|>${json}<|tool_call_end|>`;
const reserved = (json: string) => `[unused11]${json}[unused12]`;

describe('openpangu: parsing', () => {
  it('reads a list in either pair of markers, with arguments or parameters, nested and unicode', () => {
    expect(
      parse(`查一下。${named('[{"name": "get_weather", "arguments": {"city": "深圳"}}, {"name": "get_time", "parameters": {}}]')}`),
    ).toEqual([{ type: 'text', text: '查一下。' }, call('get_weather', { city: '深圳' }), call('get_time', {})]);
    expect(parse(reserved('[{"name": "create_event", "arguments": {"title": "会", "options": {"remind": true}}}]'))).toEqual([
      call('create_event', { title: '会', options: { remind: true } }),
    ]);
  });

  it('keeps the end marker inside a string, and still reads LFM2’s pythonic list', () => {
    expect(parse(reserved('[{"name": "write_file", "arguments": {"path": "a", "content": "[unused12] <|tool_call_end|>"}}]'))).toEqual([
      call('write_file', { path: 'a', content: '[unused12] <|tool_call_end|>' }),
    ]);
    expect(parse(named('[get_weather(city="Lyon")]'))).toEqual([call('get_weather', { city: 'Lyon' })]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`Time.</think>${named('[{"name": "get_time", "arguments": {}}]')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });
});
