import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('longcat');

testFamilyTable(format);

const block = (body: string) => `<longcat_tool_call>\n${body}\n</longcat_tool_call>`;
const pair = (key: string, value: string) => `<longcat_arg_key>${key}</longcat_arg_key>\n<longcat_arg_value>${value}</longcat_arg_value>\n`;

describe('longcat: parsing', () => {
  it('reads JSON blocks, several in a row, with text before them', () => {
    expect(
      parse(
        `I'll check both.\n${block('{"name": "get_weather", "arguments": {"city": "Paris"}}')}\n${block('{"name": "get_time", "arguments": {}}')}`,
      ),
    ).toEqual([
      { type: 'text', text: "I'll check both.\n" },
      call('get_weather', { city: 'Paris' }),
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('reads the arg-pair body, values converted by the schema, the close tag inside a value kept', () => {
    expect(
      parse(`<longcat_tool_call>search_web\n${pair('query', 'a </longcat_tool_call> b')}${pair('max_results', '5')}</longcat_tool_call>`),
    ).toEqual([call('search_web', { query: 'a </longcat_tool_call> b', max_results: 5 })]);
    expect(
      parse(`<longcat_tool_call>write_file\n${pair('path', '007')}${pair('content', 'naïve 日本語\n{x}')}</longcat_tool_call>`),
    ).toEqual([call('write_file', { path: '007', content: 'naïve 日本語\n{x}' })]);
  });

  it('reads <think> reasoning before a call', () => {
    expect(parse(`<think>Need data.</think>\n${block('{"name": "get_time", "arguments": {}}')}`)).toEqual([
      { type: 'reasoning', text: 'Need data.' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('reports cut-off calls as unparsed', () => {
    expect(parse(`<longcat_tool_call>search_web\n${pair('query', 'x')}`)).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});
