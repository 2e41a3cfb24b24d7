/** The hy3 family: Hy3's `<tool_calls>` section of `<tool_call>NAME<tool_sep>` blocks with GLM-style pairs. */
import { describe, expect, it } from 'vitest';
import { testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('hy3');

testFamilyTable(format);

const pair = (key: string, value: string) => `<arg_key>${key}</arg_key><arg_value>${value}</arg_value>`;
const block = (name: string, ...pairs: string[]) => `<tool_call>${name}<tool_sep>${pairs.join('')}</tool_call>`;
const section = (...blocks: string[]) => `<tool_calls>${blocks.join('')}</tool_calls>`;

describe('hy3: parsing', () => {
  it('reads text then a section of several calls, values typed by the schema', () => {
    expect(
      parse(
        `查一下。\n${section(block('get_weather', pair('city', '深圳'), pair('unit', 'celsius')), block('search_web', pair('query', '42'), pair('max_results', '3')))}`,
      ),
    ).toEqual([
      { type: 'text', text: '查一下。\n' },
      call('get_weather', { city: '深圳', unit: 'celsius' }),
      call('search_web', { query: '42', max_results: 3 }),
    ]);
  });

  it('reads a call without arguments and nested JSON values; Hunyuan-A13B’s JSON list still reads', () => {
    expect(parse(section(block('get_time')))).toEqual([call('get_time', {})]);
    expect(parse(section(block('create_event', pair('title', 'x'), pair('options', '{"remind": true}'))))).toEqual([
      call('create_event', { title: 'x', options: { remind: true } }),
    ]);
    expect(parse('<tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>')).toEqual([call('get_time', {})]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`Time.</think>${section(block('get_time'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(parse(`<tool_calls>${'<tool_call>search_web<tool_sep><arg_key>query</arg_key><arg_value>ha'}`)).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});

const suffix = ':6124c78e';
const tag = (name: string) => `<${name}${suffix}>`;
const closeTag = (name: string) => `</${name}${suffix}>`;
const hy4Pair = (key: string, value: string) =>
  `${tag('arg_key')}${key}${closeTag('arg_key')}${tag('arg_value')}${value}${closeTag('arg_value')}`;
const hy4Block = (name: string, ...pairs: string[]) => `${tag('tool_call')}${name}${pairs.join('')}${closeTag('tool_call')}`;
const hy4Section = (...blocks: string[]) => `${tag('tool_calls')}${blocks.join('')}${closeTag('tool_calls')}`;

describe('hy3: Hy4 replies (vLLM hy_v4 parser)', () => {
  it('reads sections without <tool_sep>, plain or with the checkpoint’s tag suffix', () => {
    expect(parse(`<tool_calls><tool_call>get_weather<arg_key>city</arg_key><arg_value>深圳</arg_value></tool_call></tool_calls>`)).toEqual([
      call('get_weather', { city: '深圳' }),
    ]);
    expect(
      parse(
        `好的。${hy4Section(hy4Block('get_weather', hy4Pair('city', '深圳')), hy4Block('search_web', hy4Pair('query', 'x'), hy4Pair('max_results', '3')))}`,
      ),
    ).toEqual([
      { type: 'text', text: '好的。' },
      call('get_weather', { city: '深圳' }),
      call('search_web', { query: 'x', max_results: 3 }),
    ]);
    expect(parse(hy4Section(hy4Block('get_time')))).toEqual([call('get_time', {})]);
  });

  it('keeps a value holding the suffixed section close, and reports cut-off calls', () => {
    expect(parse(hy4Section(hy4Block('write_file', hy4Pair('path', 'a'), hy4Pair('content', `x${closeTag('tool_calls')}y`))))).toEqual([
      call('write_file', { path: 'a', content: `x${closeTag('tool_calls')}y` }),
    ]);
    expect(parse(`${tag('tool_calls')}${tag('tool_call')}search_web${tag('arg_key')}query`)).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});

testChunkingInvariance({
  name: 'hy3 (Hy4 suffixed tags)',
  createParser: () => format.createParser(standardTools),
  samples: [
    `ok ${hy4Section(hy4Block('get_weather', hy4Pair('city', 'Paris')), hy4Block('get_time'))} done`,
    `${tag('tool_calls')}${tag('tool_call')}get_ti`,
    '<tool_calls: x> y',
  ],
  fragments: [tag('tool_calls'), closeTag('tool_calls'), hy4Block('get_time'), hy4Pair('city', 'Rome'), '<tool_calls:', ' ', '>'],
});
