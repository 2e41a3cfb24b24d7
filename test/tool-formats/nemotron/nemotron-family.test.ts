import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('nemotron');

testFamilyTable(format);

const toolCall = (json: string) => `<TOOLCALL>${json}</TOOLCALL>`;

describe('nemotron: parsing', () => {
  it('reads a call list after reasoning, also when the template opened <think>', () => {
    expect(
      parse(`<think>\nThe user wants weather.\n</think>\n\n${toolCall('[{"name": "get_weather", "arguments": {"city": "Santa Clara"}}]')}`),
    ).toEqual([
      { type: 'reasoning', text: 'The user wants weather.' },
      { type: 'text', text: '\n\n' },
      call('get_weather', { city: 'Santa Clara' }),
    ]);
    expect(parse(`Time.</think>${toolCall('[{"name": "get_time", "arguments": {}}]')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reads several calls, nested and unicode arguments, and arguments written as a JSON string', () => {
    expect(parse(toolCall('[{"name": "get_time", "arguments": {}}, {"name": "search_web", "arguments": {"query": "東京"}}]'))).toEqual([
      call('get_time', {}),
      call('search_web', { query: '東京' }),
    ]);
    expect(
      parse(toolCall('[{"name": "create_event", "arguments": "{\\"title\\": \\"x\\", \\"options\\": {\\"remind\\": true}}"}]')),
    ).toEqual([call('create_event', { title: 'x', options: { remind: true } })]);
  });

  it('keeps the close tag inside a string argument', () => {
    expect(parse(toolCall('[{"name": "write_file", "arguments": {"path": "a", "content": "</TOOLCALL>"}}]'))).toEqual([
      call('write_file', { path: 'a', content: '</TOOLCALL>' }),
    ]);
  });
});
