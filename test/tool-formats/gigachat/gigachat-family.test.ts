import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('gigachat');

testFamilyTable(format);

/** GigaChat 3: the assistant's message ends, then the `function call` role holds the JSON. */
const v3Call = (json: string) => `<|message_sep|>\n\nfunction call<|role_sep|>\n${json}`;
/** GigaChat 3.1's own token. */
const v31Call = (json: string) => `<|function_call|>${json}`;

describe('gigachat: parsing', () => {
  it('reads the GigaChat 3 role form, dropping the message separator before it', () => {
    expect(parse(`Сейчас проверю.${v3Call('{"name": "get_weather", "arguments": {"city": "Москва"}}')}`)).toEqual([
      { type: 'text', text: 'Сейчас проверю.\n\n' },
      call('get_weather', { city: 'Москва' }),
    ]);
  });

  it('reads the GigaChat 3.1 token form, with the end-of-sequence token after it', () => {
    expect(parse(`${v31Call('{"name": "search_web", "arguments": {"query": "погода", "max_results": 3}}')}</s>`)).toEqual([
      call('search_web', { query: 'погода', max_results: 3 }),
    ]);
  });

  it('keeps nested arguments and markers inside strings', () => {
    expect(parse(v31Call('{"name": "write_file", "arguments": {"path": "a", "content": "<|message_sep|> and </s> {x}"}}'))).toEqual([
      call('write_file', { path: 'a', content: '<|message_sep|> and </s> {x}' }),
    ]);
    expect(parse(v3Call('{"name": "create_event", "arguments": {"title": "x", "options": {"remind": true}}}'))).toEqual([
      { type: 'text', text: '\n\n' },
      call('create_event', { title: 'x', options: { remind: true } }),
    ]);
  });
});
