/** The solar-open family: Solar Open 2's `<|tool_call:start|>` blocks with `<|tool_arg:…|>` pairs. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('solar-open');

testFamilyTable(format);

const argument = (key: string, value: string) => `<|tool_arg:start|>${key}<|tool_arg:value|>${value}<|tool_arg:end|>\n`;
const block = (name: string, ...pairs: string[]) => `<|tool_call:start|>${name}\n${pairs.join('')}<|tool_call:end|>`;

describe('solar-open: parsing', () => {
  it('reads text then several calls, values typed by the schema', () => {
    expect(
      parse(
        `Checking both.\n${block('get_weather', argument('city', 'Seoul'), argument('unit', 'celsius'))}\n${block('search_web', argument('query', '부산 맛집'), argument('max_results', '5'))}`,
      ),
    ).toEqual([
      { type: 'text', text: 'Checking both.\n' },
      call('get_weather', { city: 'Seoul', unit: 'celsius' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: '부산 맛집', max_results: 5 }),
    ]);
  });

  it('reads a call without arguments, nested JSON values, and a string that looks like a number', () => {
    expect(parse(block('get_time'))).toEqual([call('get_time', {})]);
    expect(
      parse(
        block(
          'create_event',
          argument('title', '42'),
          argument('attendees', '["a@example.com", "b@example.com"]'),
          argument('options', '{"remind": true}'),
        ),
      ),
    ).toEqual([call('create_event', { title: '42', attendees: ['a@example.com', 'b@example.com'], options: { remind: true } })]);
  });

  it('keeps the call end token inside a value', () => {
    expect(parse(block('write_file', argument('path', 'a.md'), argument('content', 'say <|tool_call:end|> here')))).toEqual([
      call('write_file', { path: 'a.md', content: 'say <|tool_call:end|> here' }),
    ]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`<think>Weather.</think>${block('get_weather', argument('city', 'Busan'))}`)).toEqual([
      { type: 'reasoning', text: 'Weather.' },
      call('get_weather', { city: 'Busan' }),
    ]);
    expect(parse(`Time.</think>${block('get_time')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });
});
