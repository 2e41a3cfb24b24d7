/** The minimax-m3 family: `]<]minimax[>[`-prefixed sections of invokes whose arguments are XML elements. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('minimax-m3');

testFamilyTable(format);

const ns = ']<]minimax[>[';
const element = (key: string, value: string) => `${ns}<${key}>${value}${ns}</${key}>`;
const invoke = (name: string, ...elements: string[]) =>
  `${ns}<invoke name="${name}">\n${elements.map((line) => `${line}\n`).join('')}${ns}</invoke>`;
const section = (...invokes: string[]) => `${ns}<tool_call>\n${invokes.join('\n')}\n${ns}</tool_call>`;

describe('minimax-m3: rendering', () => {
  it('expands objects and arrays into elements, as the template’s to_xml does', () => {
    expect(
      format.renderCall({
        name: 'create_event',
        arguments: '{"title":"Sync","attendees":["a@x.io","b@x.io"],"options":{"remind":true,"minutes":10}}',
      }),
    ).toBe(
      section(
        invoke(
          'create_event',
          element('title', 'Sync'),
          element('attendees', element('item', 'a@x.io') + element('item', 'b@x.io')),
          element('options', element('remind', 'true') + element('minutes', '10')),
        ),
      ),
    );
  });
});

describe('minimax-m3: parsing', () => {
  it('reads text then a section of several invokes, values typed by the schema', () => {
    expect(
      parse(
        `Let me check.\n${section(invoke('get_weather', element('city', 'Shanghai'), element('unit', 'celsius')), invoke('search_web', element('query', '42'), element('max_results', '3')))}`,
      ),
    ).toEqual([
      { type: 'text', text: 'Let me check.\n' },
      call('get_weather', { city: 'Shanghai', unit: 'celsius' }),
      call('search_web', { query: '42', max_results: 3 }),
    ]);
  });

  it('reads nested objects and arrays, with and without a schema for them', () => {
    expect(
      parse(
        section(
          invoke(
            'create_event',
            element('title', 'x'),
            element('attendees', `\n${element('item', 'a@x.io')}\n${element('item', 'b')}\n`),
            element('options', element('remind', 'true')),
          ),
        ),
      ),
    ).toEqual([call('create_event', { title: 'x', attendees: ['a@x.io', 'b'], options: { remind: true } })]);
    expect(
      parse(
        section(
          invoke(
            'create_event',
            element('title', 'y'),
            element('options', element('extra', element('depth', '2') + element('tags', element('item', 'z')))),
          ),
        ),
      ),
    ).toEqual([call('create_event', { title: 'y', options: { extra: { depth: 2, tags: ['z'] } } })]);
    expect(parse(section(invoke('get_time')))).toEqual([call('get_time', {})]);
  });

  it('keeps a string value as written, even when it holds tags', () => {
    expect(parse(section(invoke('write_file', element('path', 'a.xml'), element('content', `  <x></tool_call></x>\n`))))).toEqual([
      call('write_file', { path: 'a.xml', content: `  <x></tool_call></x>\n` }),
    ]);
  });

  it('reads <mm:think> reasoning and drops the bare close of a turn without it', () => {
    expect(parse(`<mm:think>Weather.</mm:think>${section(invoke('get_weather', element('city', 'Rome')))}`)).toEqual([
      { type: 'reasoning', text: 'Weather.' },
      call('get_weather', { city: 'Rome' }),
    ]);
    expect(parse('</mm:think>Hello.')).toMatchObject([
      { type: 'warning', code: 'reasoning-orphan-close' },
      { type: 'text', text: 'Hello.' },
    ]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(parse(`${ns}<tool_call>\n${ns}<invoke name="search_web">\n${ns}<query>ha`)).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});

describe('minimax-m3: values quoting the markup', () => {
  // M2 has value spans (only a parameter's own close ends it); M3's values are elements named after
  // their argument, so the section scanner tracks the open elements instead.
  it("keeps M2's and M3's section close inside a string value, streamed or not", () => {
    const content = `x </tool_call> <invoke name="a"> </minimax:tool_call> ${ns}</tool_call> ${ns}<tool_call> y`;
    const events = parse(`${section(invoke('write_file', element('path', 'a.md'), element('content', content)))} ok`);
    expect(events).toEqual([call('write_file', { path: 'a.md', content }), { type: 'text', text: ' ok' }]);
  });

  it('ends the section at its close when an invoke close is missing', () => {
    const events = parse(`${ns}<tool_call>\n${ns}<invoke name="get_weather">\n${element('city', 'Paris')}\n${ns}</tool_call> ok`);
    expect(events).toEqual([call('get_weather', { city: 'Paris' }), { type: 'text', text: ' ok' }]);
  });

  // A tag too long for markup is text, whether it arrives in one chunk or many: the section still ends at its close.
  it('reads a tag longer than the markup limit as value text, streamed or not', () => {
    const long = `${ns}<note ${'z'.repeat(300)}`;
    const text = `${ns}<tool_call>\n${ns}<invoke name="write_file">\n${element('content', long)}\n${ns}</invoke>\n${ns}</tool_call> ok`;
    const events = parse(text);
    expect(events).toEqual([call('write_file', { content: long }), { type: 'text', text: ' ok' }]);
  });

  // The section close's token begins inside a tag that only turns out too long once the token's `>` comes:
  // read on chunk by chunk, the tag must not have taken the token's start, or the close would be missed.
  it('ends the section at a close whose token began inside a tag too long for markup', () => {
    const tooLong = `${ns}<x${'y'.repeat(247)}`;
    const text = `${ns}<tool_call>\n${invoke('get_time')}\n${tooLong}${ns}</tool_call> ok`;
    expect(parse(text)).toEqual([call('get_time', {}), { type: 'text', text: ' ok' }]);
  });

  it('reports a value still open at the end of the reply as cut off', () => {
    const events = parse(`${ns}<tool_call>\n${ns}<invoke name="write_file">\n${ns}<content>abc ${ns}</tool_call>`);
    expect(events).toEqual([expect.objectContaining({ type: 'tool-call-unparsed', reason: 'unclosed' })]);
  });
});
