/** The kimi-k3 family: Kimi K3's XTML channels and `<|open|>tools<|sep|>` call sections. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('kimi-k3');

testFamilyTable(format);

const argument = (key: string, type: string, value: string) =>
  `<|open|>argument key="${key}" type="${type}"<|sep|>${value}<|close|>argument<|sep|>`;
const k3Call = (name: string, index: number, ...body: string[]) =>
  `<|open|>call tool="${name}" index="${index}"<|sep|>${body.join('')}<|close|>call<|sep|>`;
const tools = (...calls: string[]) => `<|open|>tools<|sep|>${calls.join('')}<|close|>tools<|sep|>`;
const response = (text: string) => `<|open|>response<|sep|>${text}<|close|>response<|sep|>`;
const end = '<|close|>message<|sep|><|end_of_msg|>';

describe('kimi-k3: parsing', () => {
  it('reads a reply that began inside the think channel: reasoning, response, then typed calls', () => {
    const reply = `The user wants weather.<|close|>think<|sep|>${response('Checking both.')}${tools(k3Call('get_weather', 1, argument('city', 'string', 'Paris'), argument('unit', 'string', 'celsius')), k3Call('search_web', 2, argument('query', 'string', '東京 "today"'), argument('max_results', 'number', '5')))}${end}`;
    expect(parse(reply, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants weather.' },
      { type: 'text', text: 'Checking both.' },
      call('get_weather', { city: 'Paris', unit: 'celsius' }),
      call('search_web', { query: '東京 "today"', max_results: 5 }),
    ]);
  });

  it('reads object, array, boolean and null arguments as JSON, a string that looks like a number as a string, and a json block', () => {
    expect(
      parse(
        tools(
          k3Call(
            'create_event',
            1,
            argument('title', 'string', '42'),
            argument('attendees', 'array', '["a@example.com"]'),
            argument('options', 'object', '{"remind": true}'),
          ),
        ),
      ),
    ).toEqual([call('create_event', { title: '42', attendees: ['a@example.com'], options: { remind: true } })]);
    expect(parse(tools(k3Call('get_weather', 1, '<|open|>json type="object"<|sep|>{"city": "Oslo"}<|close|>json<|sep|>')))).toEqual([
      call('get_weather', { city: 'Oslo' }),
    ]);
    expect(parse(tools(k3Call('get_time', 1)))).toEqual([call('get_time', {})]);
  });

  it('keeps values as written (only attributes are escaped) and the section end inside a value', () => {
    expect(
      parse(
        tools(k3Call('write_file', 1, argument('path', 'string', 'a.txt'), argument('content', 'string', 'x <|close|>tools<|sep|> y'))),
      ),
    ).toEqual([call('write_file', { path: 'a.txt', content: 'x <|close|>tools<|sep|> y' })]);
    expect(
      parse(
        tools(
          `<|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Tom &amp; Jerry<|close|>argument<|sep|><|close|>call<|sep|>`,
        ),
      ),
    ).toEqual([call('get_weather', { city: 'Tom &amp; Jerry' })]);
  });

  it('reads a reply with thinking off (the template opened the response channel)', () => {
    expect(parse(`Paris is sunny.<|close|>response<|sep|>${end}`)).toEqual([{ type: 'text', text: 'Paris is sunny.' }]);
  });
});
