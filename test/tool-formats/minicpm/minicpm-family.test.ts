/** The minicpm family: MiniCPM5's `<function name="N"><param name="K">V</param></function>` blocks. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('minicpm');

testFamilyTable(format);

const param = (key: string, value: string) => `<param name="${key}">${value}</param>`;
const block = (name: string, ...params: string[]) => `<function name="${name}">${params.join('')}</function>`;

describe('minicpm: parsing', () => {
  it('reads text then several blocks, values typed by the schema, unicode kept', () => {
    expect(
      parse(
        `查天气。\n${block('get_weather', param('city', '北京'), param('unit', 'celsius'))}\n${block('search_web', param('query', 'a "quoted" query'), param('max_results', '3'))}`,
      ),
    ).toEqual([
      { type: 'text', text: '查天气。\n' },
      call('get_weather', { city: '北京', unit: 'celsius' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: 'a "quoted" query', max_results: 3 }),
    ]);
  });

  it('reads an <arguments> wrapper, CDATA values, nested JSON, single-quoted names, and a call without parameters', () => {
    expect(
      parse(
        `<function name="create_event"><arguments>${param('title', '42')}${param('options', '{"remind": true}')}${param('attendees', '<![CDATA[["a@example.com"]]]>')}</arguments></function>`,
      ),
    ).toEqual([call('create_event', { title: '42', options: { remind: true }, attendees: ['a@example.com'] })]);
    expect(parse("<function name='get_time'></function>")).toEqual([call('get_time', {})]);
  });

  it('keeps </function> inside a value, and leaves Llama’s <function=NAME> to its own reader', () => {
    expect(parse(block('write_file', param('path', 'a.html'), param('content', '<script>function f() {}</script></function>')))).toEqual([
      call('write_file', { path: 'a.html', content: '<script>function f() {}</script></function>' }),
    ]);
    expect(parse('<function=get_time>{}</function>')).toEqual([call('get_time', {})]);
  });

  // vLLM's minicpm5xml parser and llama.cpp's minicpm5 parser read arguments from <param> children only; a JSON
  // body is no call of MiniCPM5's syntax (the JSON reading is the Hermes 2 Pro families', function-name-envelope.ts).
  it('rejects a JSON body, which its own parsers do not read, rather than call with no arguments or leak it', () => {
    expect(parse('<function name="get_weather">{"city": "Paris"}</function>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`Time.</think>${block('get_time')}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Time.' },
      call('get_time', {}),
    ]);
  });
});
