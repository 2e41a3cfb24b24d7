import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('functionary-v31');

testFamilyTable(format);

describe('functionary-v31: parsing', () => {
  it('reads one or several <function=NAME>{…}</function> calls, with text before them', () => {
    expect(parse('Checking.\n<function=get_weather>{"city": "Paris"}</function><function=get_time>{}</function>')).toEqual([
      { type: 'text', text: 'Checking.\n' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
  });

  // The body starts with the name, not with JSON, so an end tag inside a string still ends it (as for
  // llama3's registration of the same tag): the lead knows.
  it('keeps unicode and nested arguments', () => {
    expect(parse('<function=create_event>{"title": "日本語 {x} <b>", "options": {"remind": true}}</function>')).toEqual([
      call('create_event', { title: '日本語 {x} <b>', options: { remind: true } }),
    ]);
  });

  it('reports cut-off calls as unparsed', () => {
    expect(parse('<function=get_weather>{"city": "Pa')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
  });
});
