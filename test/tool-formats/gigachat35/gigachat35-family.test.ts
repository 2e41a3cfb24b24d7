/** The gigachat35 family: GigaChat 3.5's `<｜GCML｜tool_calls>` sections of `<｜GCML｜invoke>` calls. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('gigachat35');

testFamilyTable(format);

const parameter = (key: string, value: string, isString = true) =>
  `<｜GCML｜parameter name="${key}" string="${String(isString)}">${value}</｜GCML｜parameter>`;
const invoke = (name: string, ...parameters: string[]) =>
  `<｜GCML｜invoke name="${name}">\n${parameters.map((line) => `${line}\n`).join('')}</｜GCML｜invoke>`;
const section = (...invokes: string[]) => `<｜GCML｜tool_calls>\n${invokes.join('\n')}\n</｜GCML｜tool_calls>`;

describe('gigachat35: rendering', () => {
  it('writes strings as they are and other values as JSON, as the template does', () => {
    expect(format.renderCall({ name: 'search_web', arguments: '{"query":"Москва","max_results":3}' })).toBe(
      section(invoke('search_web', parameter('query', 'Москва'), parameter('max_results', '3', false))),
    );
  });
});

describe('gigachat35: parsing', () => {
  it('reads text then a section of several calls, values typed by the schema', () => {
    expect(
      parse(
        `Сейчас посмотрю.\n\n${section(invoke('get_weather', parameter('city', 'Москва')), invoke('search_web', parameter('query', '42'), parameter('max_results', '3', false)))}`,
      ),
    ).toEqual([
      { type: 'text', text: 'Сейчас посмотрю.\n\n' },
      call('get_weather', { city: 'Москва' }),
      call('search_web', { query: '42', max_results: 3 }),
    ]);
  });

  it('reads nested JSON values, a call without arguments and a value holding the section close', () => {
    expect(
      parse(
        section(
          invoke(
            'create_event',
            parameter('title', 'x'),
            parameter('options', '{"remind": true}', false),
            parameter('attendees', '["a@x.io"]', false),
          ),
        ),
      ),
    ).toEqual([call('create_event', { title: 'x', options: { remind: true }, attendees: ['a@x.io'] })]);
    expect(parse(section(invoke('get_time')))).toEqual([call('get_time', {})]);
    expect(parse(section(invoke('write_file', parameter('path', 'a.md'), parameter('content', 'see </｜GCML｜tool_calls> here'))))).toEqual(
      [call('write_file', { path: 'a.md', content: 'see </｜GCML｜tool_calls> here' })],
    );
  });

  it('reads reasoning first, also when the template opened it', () => {
    expect(parse(`<think>Погода.</think>${section(invoke('get_weather', parameter('city', 'Омск')))}`)).toEqual([
      { type: 'reasoning', text: 'Погода.' },
      call('get_weather', { city: 'Омск' }),
    ]);
    expect(parse(`Время.</think>\n\n${section(invoke('get_time'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Время.' },
      { type: 'text', text: '\n\n' },
      call('get_time', {}),
    ]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(
      parse(`<｜GCML｜tool_calls>\n<｜GCML｜invoke name="search_web">\n<｜GCML｜parameter name="query" string="true">ha`),
    ).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
  });
});
