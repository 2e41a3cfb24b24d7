/** The plamo3 family: PLaMo 3's `<|plamo:begin_tool_requests:plamo|>` sections. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('plamo3');

testFamilyTable(format);

const request = (name: string, json: string) =>
  `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>${name}<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>${json}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>`;
const section = (...requests: string[]) => `<|plamo:begin_tool_requests:plamo|>${requests.join('')}<|plamo:end_tool_requests:plamo|>`;

describe('plamo3: parsing', () => {
  it('reads text then a section of several requests, nested and unicode arguments', () => {
    expect(
      parse(
        `東京の天気を調べます。\n${section(request('get_weather', '{"city": "東京"}'), request('create_event', '{"title": "会議", "options": {"remind": true}}'))}`,
      ),
    ).toEqual([
      { type: 'text', text: '東京の天気を調べます。\n' },
      call('get_weather', { city: '東京' }),
      call('create_event', { title: '会議', options: { remind: true } }),
    ]);
  });

  it('keeps the section’s close tag inside a JSON argument string', () => {
    expect(parse(section(request('write_file', '{"path": "a", "content": "<|plamo:end_tool_requests:plamo|>"}')))).toEqual([
      call('write_file', { path: 'a', content: '<|plamo:end_tool_requests:plamo|>' }),
    ]);
    // The split into requests skips the arguments too.
    expect(parse(section(request('write_file', '{"path": "a", "content": "<|plamo:end_tool_request:plamo|>"}')))).toEqual([
      call('write_file', { path: 'a', content: '<|plamo:end_tool_request:plamo|>' }),
    ]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`<think>Time.</think>${section(request('get_time', '{}'))}`)).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
    expect(parse(`Time.</think>${section(request('get_time', '{}'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });

  it('rejects malformed requests', () => {
    const cut =
      '<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>search_web<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{"query": "ha';
    // After a complete request, the cut-off one is rejected and the complete one kept.
    expect(parse(`<|plamo:begin_tool_requests:plamo|>${request('get_time', '{}')}${cut}`)).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });
});
