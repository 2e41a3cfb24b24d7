/** The iquest-coder-v2 family: `<iquestcoder_tool_call>NAME` blocks of GLM-style pairs. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('iquest-coder-v2')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const pair = (key: string, value: string) => `<arg_key>${key}</arg_key>\n<arg_value>${value}</arg_value>`;
const block = (name: string, ...pairs: string[]) => `<iquestcoder_tool_call>${name}\n${pairs.join('\n')}\n</iquestcoder_tool_call>`;

testFamilyContract(format);

describe('iquest-coder-v2: rendering', () => {
  it('renders history with one block per call and tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <iquestcoder_tool_call>get_weather
      <arg_key>city</arg_key><arg_value>Oslo</arg_value>
      </iquestcoder_tool_call>
      <iquestcoder_tool_call>get_time
      </iquestcoder_tool_call>
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

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed calls', () => {
    expect(parse('<iquestcoder_tool_call>search_web\n<arg_key>query</arg_key><arg_value>ha')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
    expect(parse(block('delete_all_files'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(block('get_weather', 'city=Paris'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['IQuest writes iquestcoder tags.', 'a <iquest b']) expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), block('search_web', pair('query', 'x')))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'iquest-coder-v2',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${block('get_time')}</think>${block('get_weather', pair('city', 'Paris'))}\n${block('get_time')}`,
    `${block('nope')}<iquestcoder_tool_call>get_ti`,
  ],
  fragments: ['<iquestcoder_tool_call>', '</iquestcoder_tool_call>', pair('city', 'Rome'), block('get_time'), '\n'],
});
