import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('functools');

testFamilyTable(format);

describe('functools: parsing', () => {
  it('reads the list after the marker, with text before it (FireFunction writes a space first)', () => {
    expect(parse('functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('Sure, checking. functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]')).toEqual([
      { type: 'text', text: 'Sure, checking. ' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('reads several calls of one list, with "parameters" too, and text after the list', () => {
    expect(
      parse('functools[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "parameters": {}}]\nDone.'),
    ).toEqual([call('get_weather', { city: 'Paris' }), call('get_time', {}), { type: 'text', text: '\nDone.' }]);
  });

  it('keeps unicode, nesting and brackets inside strings', () => {
    expect(
      parse(
        'functools[{"name": "create_event", "arguments": {"title": "Sync ] [weekly] 🗓️", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}}]',
      ),
    ).toEqual([call('create_event', { title: 'Sync ] [weekly] 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
  });

  it('takes a list without its "]" at the end of the reply ("no closing marker required")', () => {
    expect(parse(' functools[{"name": "get_weather", "arguments": {"city": "Paris"}}')).toEqual([
      { type: 'text', text: ' ' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('reports a list cut off inside a call as unparsed, never as a call', () => {
    const cut = 'functools[{"name": "get_weather", "arguments": {"city": "Par';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'functools', text: cut, reason: 'unclosed' }]);
  });

  it('reads Phi-4-mini template tags <|tool_call|>…<|/tool_call|>', () => {
    expect(parse('<|tool_call|>{"name": "get_time", "arguments": {}}<|/tool_call|>')).toEqual([call('get_time', {})]);
  });

  it('rejects unknown tools, keeping their markup out of the text', () => {
    expect(parse('functools[{"name": "delete_all", "arguments": {}}] ok')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
      { type: 'text', text: ' ok' },
    ]);
  });
});
