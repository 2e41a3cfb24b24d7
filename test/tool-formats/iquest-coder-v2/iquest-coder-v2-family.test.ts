/** The iquest-coder-v2 family: `<iquestcoder_tool_call>NAME` blocks of GLM-style pairs. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('iquest-coder-v2');

testFamilyTable(format);

const pair = (key: string, value: string) => `<arg_key>${key}</arg_key>\n<arg_value>${value}</arg_value>`;
const block = (name: string, ...pairs: string[]) => `<iquestcoder_tool_call>${name}\n${pairs.join('\n')}\n</iquestcoder_tool_call>`;

describe('iquest-coder-v2: parsing', () => {
  it('reads text then several blocks, values typed by the schema, strings kept as written', () => {
    expect(
      parse(
        `Let me look.\n${block('read_file', pair('path', 'src/main.py'), pair('start_line', '10'))}\n${block('write_file', pair('path', 'a.py'), pair('content', '    indented\n'))}`,
      ),
    ).toEqual([
      { type: 'text', text: 'Let me look.\n' },
      call('read_file', { path: 'src/main.py', start_line: 10 }),
      { type: 'text', text: '\n' },
      call('write_file', { path: 'a.py', content: '    indented\n' }),
    ]);
  });

  it('reads a call without arguments, nested JSON and a value holding the close tag', () => {
    expect(parse(block('get_time'))).toEqual([call('get_time', {})]);
    expect(parse(block('create_event', pair('title', 'x'), pair('attendees', '["a@x.io"]')))).toEqual([
      call('create_event', { title: 'x', attendees: ['a@x.io'] }),
    ]);
    expect(parse(block('write_file', pair('path', 'a.xml'), pair('content', '<x></iquestcoder_tool_call></x>')))).toEqual([
      call('write_file', { path: 'a.xml', content: '<x></iquestcoder_tool_call></x>' }),
    ]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`Time.</think>${block('get_time')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(parse('<iquestcoder_tool_call>search_web\n<arg_key>query</arg_key><arg_value>ha')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});
