import { describe, expect, it } from 'vitest';
import { toolCallBegin, toolCallEnd, toolCallsBegin, toolCallsEnd, toolSeparator } from '../../../tool-formats/shared/deepseek-tokens.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('deepseek');

testFamilyTable(format);

/** A V3 / R1 call block: the type, the name, and the arguments in a JSON fence. */
const v3Call = (name: string, json: string) =>
  `${toolCallBegin}function${toolSeparator}${name}\n` + '```json\n' + json + '\n```' + toolCallEnd;
/** A V3.1 call block: the name and the bare JSON. */
const v31Call = (name: string, json: string) => `${toolCallBegin}${name}${toolSeparator}${json}${toolCallEnd}`;
const section = (...calls: string[]) => toolCallsBegin + calls.join('') + toolCallsEnd;

describe('deepseek: tokens', () => {
  it('uses the full-width bar U+FF5C and the U+2581 block, byte for byte', () => {
    expect(toolCallsBegin).toBe('<\uFF5Ctool\u2581calls\u2581begin\uFF5C>');
    expect(toolSeparator).toBe('<\uFF5Ctool\u2581sep\uFF5C>');
    expect(Buffer.from(toolCallEnd, 'utf8').toString('hex')).toBe('3cefbd9c746f6f6ce2968163616c6ce29681656e64efbd9c3e');
  });
});

describe('deepseek: parsing', () => {
  it('reads the V3 / R1 fenced form, with text before it', () => {
    expect(
      parse(
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Hangzhou"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      ),
    ).toEqual([call('get_weather', { city: 'Hangzhou' })]);
    expect(parse(`Let me look that up.\n${section(v3Call('search_web', '{"query": "latest LTS"}'))}`)).toEqual([
      { type: 'text', text: 'Let me look that up.\n' },
      call('search_web', { query: 'latest LTS' }),
    ]);
  });

  it('reads the V3.1 form', () => {
    expect(parse(section(v31Call('get_weather', '{"city": "Shenzhen", "unit": "celsius"}')))).toEqual([
      call('get_weather', { city: 'Shenzhen', unit: 'celsius' }),
    ]);
  });

  it('reads several calls of one section, in order', () => {
    expect(parse(section(v3Call('get_weather', '{"city": "Paris"}'), '\n', v3Call('get_time', '{}')))).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    expect(parse(section(v31Call('get_weather', '{"city": "Paris"}'), v31Call('search_web', '{"query": "Louvre"}')))).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('search_web', { query: 'Louvre' }),
    ]);
  });

  it('reads R1 reasoning, also when the template opened <think>', () => {
    expect(parse(`<think>Need fresh data.</think>\n\n${section(v3Call('search_web', '{"query": "latest LTS"}'))}`)).toEqual([
      { type: 'reasoning', text: 'Need fresh data.' },
      { type: 'text', text: '\n\n' },
      call('search_web', { query: 'latest LTS' }),
    ]);
    expect(parse(`The user wants the time.\n</think>\n\n${section(v3Call('get_time', '{}'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants the time.' },
      { type: 'text', text: '\n\n' },
      call('get_time', {}),
    ]);
  });

  it('keeps unicode, nesting and fences inside strings', () => {
    expect(
      parse(
        section(
          v3Call('create_event', '{"title": "Sync {weekly} 🗓️", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}'),
        ),
      ),
    ).toEqual([call('create_event', { title: 'Sync {weekly} 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
    expect(parse(section(v3Call('write_file', '{"path": "README.md", "content": "```\\nnaïve 日本語\\n```"}')))).toEqual([
      call('write_file', { path: 'README.md', content: '```\nnaïve 日本語\n```' }),
    ]);
  });

  it('reads a call written without its section, dropping stray section ends and end-of-sentence tokens', () => {
    expect(parse(`${v31Call('get_time', '{}')}${toolCallsEnd}<｜end▁of▁sentence｜>`)).toEqual([call('get_time', {})]);
  });

  it('reads the complete calls of a section whose end never came', () => {
    expect(parse(toolCallsBegin + v3Call('get_weather', '{"city": "Lima"}'))).toEqual([call('get_weather', { city: 'Lima' })]);
    expect(parse(toolCallsBegin + v3Call('get_weather', '{"city": "Lima"}').replace(toolCallEnd, ''))).toEqual([
      call('get_weather', { city: 'Lima' }),
    ]);
  });

  it('reports a cut-off call as unparsed, never as a call', () => {
    const cut = `Searching.\n${toolCallsBegin}${toolCallBegin}function${toolSeparator}search_web\n` + '```json\n{"query": "no';
    expect(parse(cut)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'deepseek', text: cut.slice('Searching.\n'.length), reason: 'unclosed' },
    ]);
    expect(parse(`${toolCallsBegin}${toolCallBegin}func`)).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    // A complete call before the cut-off one still counts; the cut-off one is reported.
    expect(
      parse(toolCallsBegin + v3Call('get_time', '{}') + `\n${toolCallBegin}function${toolSeparator}get_weather\n` + '```json\n{"ci'),
    ).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: expect.stringContaining('ended inside a call') },
    ]);
  });

  it('rejects unknown tools, keeping their markup out of the text', () => {
    const unknown = parse(`Sure.\n${section(v3Call('delete_all_files', '{}'))}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
  });
});

describe('deepseek: the section end token inside the arguments', () => {
  // The arguments are JSON: a value quoting the syntax (code, docs about DeepSeek) holds the tokens as text.
  it('keeps a section end inside a string of a V3.1 call, streamed or not', () => {
    const events = parse(`${section(v31Call('search_web', `{"query": "a ${toolCallsEnd} b"}`))} Done.`);
    expect(events).toEqual([call('search_web', { query: `a ${toolCallsEnd} b` }), { type: 'text', text: ' Done.' }]);
  });

  it('keeps a section end inside a string of a V3 fenced call, and the next call after it', () => {
    const events = parse(
      section(v3Call('write_file', `{"path": "x.md", "content": "${toolCallsEnd}\\n${toolCallsBegin}"}`), v3Call('get_time', '{}')),
    );
    expect(events).toEqual([call('write_file', { path: 'x.md', content: `${toolCallsEnd}\n${toolCallsBegin}` }), call('get_time', {})]);
  });

  it('keeps a call end inside a string of a call written without its section', () => {
    expect(parse(`${v31Call('search_web', `{"query": "${toolCallEnd}"}`)}!`)).toEqual([
      call('search_web', { query: toolCallEnd }),
      { type: 'text', text: '!' },
    ]);
  });

  it('still ends the section at its token outside a string when the object is left open (repaired)', () => {
    const events = parse(`${toolCallsBegin}${toolCallBegin}search_web${toolSeparator}{"query": "a"${toolCallsEnd} Sorry.`);
    expect(events).toEqual([call('search_web', { query: 'a' }), { type: 'text', text: ' Sorry.' }]);
  });
});
