import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('apertus');

testFamilyTable(format);

const section = (json: string) => `<|tools_prefix|>${json}<|tools_suffix|>`;

describe('apertus: parsing', () => {
  it('reads name-keyed calls with text before them (vLLM’s example)', () => {
    expect(parse(`I will check. ${section('[{"get_weather": {"city": "Paris"}}]')}`)).toEqual([
      { type: 'text', text: 'I will check. ' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('reads several calls, nested and unicode arguments, and the common {name, arguments} shape', () => {
    expect(parse(section('[{"get_weather": {"city": "Zürich"}}, {"get_time": {}}]'))).toEqual([
      call('get_weather', { city: 'Zürich' }),
      call('get_time', {}),
    ]);
    expect(parse(section('[{"create_event": {"title": "Sitzung {wöchentlich}", "options": {"remind": true}}}]'))).toEqual([
      call('create_event', { title: 'Sitzung {wöchentlich}', options: { remind: true } }),
    ]);
    expect(parse(section('[{"name": "get_time", "arguments": {}}]'))).toEqual([call('get_time', {})]);
  });

  it('streams <|inner_prefix|> reasoning and drops the end-of-turn token', () => {
    expect(
      parse(`<|inner_prefix|>Weather needed.<|inner_suffix|>${section('[{"get_weather": {"city": "Bern"}}]')}<|assistant_end|>`),
    ).toEqual([{ type: 'reasoning', text: 'Weather needed.' }, call('get_weather', { city: 'Bern' })]);
  });

  it('reads a complete list whose suffix never came', () => {
    expect(parse('<|tools_prefix|>[{"get_time": {}}]')).toEqual([call('get_time', {})]);
  });
});
