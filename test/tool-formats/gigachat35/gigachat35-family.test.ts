/** The gigachat35 family: GigaChat 3.5's `<｜GCML｜tool_calls>` sections of `<｜GCML｜invoke>` calls. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('gigachat35')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const parameter = (key: string, value: string, isString = true) =>
  `<｜GCML｜parameter name="${key}" string="${String(isString)}">${value}</｜GCML｜parameter>`;
const invoke = (name: string, ...parameters: string[]) =>
  `<｜GCML｜invoke name="${name}">\n${parameters.map((line) => `${line}\n`).join('')}</｜GCML｜invoke>`;
const section = (...invokes: string[]) => `<｜GCML｜tool_calls>\n${invokes.join('\n')}\n</｜GCML｜tool_calls>`;

testFamilyContract(format);

describe('gigachat35: rendering', () => {
  it('renders history with one GCML section per turn and named function responses', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <｜GCML｜tool_calls>
      <｜GCML｜invoke name="get_weather">
      <｜GCML｜parameter name="city" string="true">Oslo</｜GCML｜parameter>
      </｜GCML｜invoke>
      <｜GCML｜invoke name="get_time">
      </｜GCML｜invoke>
      </｜GCML｜tool_calls>
      [user] <function_response name="get_weather">-3 C, snow</function_response>
      <function_response name="get_time">Error: error: clock unavailable</function_response>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });

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

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed calls', () => {
    expect(
      parse(`<｜GCML｜tool_calls>\n<｜GCML｜invoke name="search_web">\n<｜GCML｜parameter name="query" string="true">ha`),
    ).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    expect(parse(section(invoke('delete_all_files')))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse(section('get_weather(city="Paris")'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text, strikethrough HTML included, and only calls the request’s tools', () => {
    for (const text of ['GigaChat writes GCML tags.', 'a <s>b</s> c', '<｜GCML｜ alone'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), section(invoke('search_web', parameter('query', 'x')))),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'gigachat35',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${section(invoke('get_time'))}</think>${section(invoke('get_weather', parameter('city', 'Paris')), invoke('get_time'))}</s>`,
    `${section(invoke('nope'))}<｜GCML｜tool_calls><｜GCML｜invoke name="get_ti`,
  ],
  fragments: [
    '<｜GCML｜tool_calls>',
    '</｜GCML｜tool_calls>',
    '<｜GCML｜invoke name="get_time">',
    '</｜GCML｜invoke>',
    parameter('city', 'Rome'),
    '</s>',
    '\n',
  ],
});
