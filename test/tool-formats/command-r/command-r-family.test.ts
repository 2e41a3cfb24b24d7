import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('command-r');

testFamilyTable(format);

const action = (json: string) => 'Action: ```json\n' + json + '\n```';

describe('command-r: parsing', () => {
  it('reads an action list, also with the fence on its own line', () => {
    const list = '[\n    {\n        "tool_name": "get_weather",\n        "parameters": {"city": "Paris"}\n    }\n]';
    expect(parse(action(list))).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('Action:\n```json\n' + list + '\n```')).toEqual([call('get_weather', { city: 'Paris' })]);
  });

  it('reads several actions, nested and unicode parameters, and fences inside strings', () => {
    expect(
      parse(action('[{"tool_name": "get_time", "parameters": {}}, {"tool_name": "search_web", "parameters": {"query": "Köln"}}]')),
    ).toEqual([call('get_time', {}), call('search_web', { query: 'Köln' })]);
    expect(parse(action('[{"tool_name": "write_file", "parameters": {"path": "a.md", "content": "```py\\nx\\n```"}}]'))).toEqual([
      call('write_file', { path: 'a.md', content: '```py\nx\n```' }),
    ]);
  });
});
