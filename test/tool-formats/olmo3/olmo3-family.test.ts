import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('olmo3');

testFamilyTable(format);

const block = (...lines: string[]) => `<function_calls>\n${lines.join('\n')}\n</function_calls>`;

describe('olmo3: parsing', () => {
  it('reads newline-separated calls with text before them', () => {
    expect(parse(`I'll check both.\n${block('get_weather(city="Paris")', 'get_time()')}`)).toEqual([
      { type: 'text', text: "I'll check both.\n" },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
  });

  it('takes JSON literals as well as Python ones, and nested values', () => {
    expect(parse(block('create_event(title="Sync 🗓️", attendees=["a@x.io"], options={"remind": true, "minutes": null})'))).toEqual([
      call('create_event', { title: 'Sync 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: null } }),
    ]);
    expect(parse(block("create_event(title='x', options={'remind': False})"))).toEqual([
      call('create_event', { title: 'x', options: { remind: false } }),
    ]);
  });

  it('keeps the close tag inside a string argument', () => {
    expect(parse(block('write_file(path="a.md", content="ends with </function_calls> here\\n")'))).toEqual([
      call('write_file', { path: 'a.md', content: 'ends with </function_calls> here\n' }),
    ]);
  });

  it('reads OLMo 3 Think reasoning, also when the template opened <think>', () => {
    expect(parse(`Need the time.</think>\n${block('get_time()')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Need the time.' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off call as unparsed and rejects prose in the block', () => {
    const cut = '<function_calls>\nsearch_web(query="half';
    expect(parse(`Searching.\n${cut}`)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'olmo3', text: cut, reason: 'unclosed' },
    ]);
  });
});
