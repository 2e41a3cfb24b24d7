import { describe, expect, it } from 'vitest';
import { toolCallBegin, toolCallEnd, toolCallsBegin, toolCallsEnd, toolSeparator } from '../../../tool-formats/step3/step3-tokens.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('step3');

testFamilyTable(format);

const invoke = (name: string, parameters: Record<string, string> = {}) =>
  `<steptml:invoke name="${name}">\n${Object.entries(parameters)
    .map(([key, value]) => `<steptml:parameter name="${key}">${value}</steptml:parameter>\n`)
    .join('')}</steptml:invoke>`;
const stepCall = (name: string, parameters: Record<string, string> = {}) =>
  `${toolCallBegin}function${toolSeparator}${invoke(name, parameters)}${toolCallEnd}`;
const section = (...calls: string[]) => toolCallsBegin + calls.join('') + toolCallsEnd;

describe('step3: tokens', () => {
  it('uses the full-width bar U+FF5C without DeepSeek’s U+2581, byte for byte', () => {
    expect(toolCallsBegin).toBe('<\uFF5Ctool_calls_begin\uFF5C>');
    expect(Buffer.from(toolSeparator, 'utf8').toString('hex')).toBe('3cefbd9c746f6f6c5f736570efbd9c3e');
  });
});

describe('step3: parsing', () => {
  it('reads a section with text before it, typing values with the schema', () => {
    expect(parse(`Let me look.\n${section(stepCall('search_web', { query: '2024', max_results: '5' }))}`)).toEqual([
      { type: 'text', text: 'Let me look.\n' },
      call('search_web', { query: '2024', max_results: 5 }),
    ]);
  });

  it('reads several calls in one section, also with a separator between them or no call type (vLLM’s test replies)', () => {
    expect(parse(section(stepCall('get_weather', { city: 'Tokyo' }), '\n', stepCall('get_time')))).toEqual([
      call('get_weather', { city: 'Tokyo' }),
      call('get_time', {}),
    ]);
    const vllmParallel = `${toolCallsBegin}${toolCallBegin}${invoke('get_weather', { city: 'Tokyo' })}${toolCallEnd}${toolSeparator}${toolCallBegin}${invoke('get_time')}${toolCallEnd}${toolCallsEnd}`;
    expect(parse(vllmParallel)).toEqual([call('get_weather', { city: 'Tokyo' }), call('get_time', {})]);
  });

  it('keeps values holding `<`, unicode and nested JSON', () => {
    expect(parse(section(stepCall('write_file', { path: 'a.ts', content: 'if (a < b) { return "日本"; }' })))).toEqual([
      call('write_file', { path: 'a.ts', content: 'if (a < b) { return "日本"; }' }),
    ]);
    expect(parse(section(stepCall('create_event', { title: 'Sync', options: '{"remind": false}', attendees: '["ü@x.io"]' })))).toEqual([
      call('create_event', { title: 'Sync', options: { remind: false }, attendees: ['ü@x.io'] }),
    ]);
  });

  it('reads a call whose value holds the end tokens, keeping them in the value', () => {
    // Both the section scanner and the call split skip values.
    const content = `say ${toolCallEnd}${toolCallsEnd} literally`;
    const events = parse(`Writing.${section(stepCall('write_file', { path: 'step3.md', content }))}`);
    expect(events).toEqual([{ type: 'text', text: 'Writing.' }, call('write_file', { path: 'step3.md', content })]);
    expect(textOf(events)).not.toContain('literally');
  });

  it('reads <think> reasoning and a call without its section', () => {
    expect(parse(`<think>Need the time.</think>${stepCall('get_time')}${toolCallsEnd}`)).toEqual([
      { type: 'reasoning', text: 'Need the time.' },
      call('get_time', {}),
    ]);
  });

  it('reads the complete calls of a section whose end never came, and reports a cut-off one', () => {
    expect(parse(toolCallsBegin + stepCall('get_weather', { city: 'Lima' }))).toEqual([call('get_weather', { city: 'Lima' })]);
    const cut = `${toolCallsBegin}${toolCallBegin}function${toolSeparator}<steptml:invoke name="search_web">\n<steptml:parameter name="query">no`;
    expect(parse(`Searching.\n${cut}`)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'step3', text: cut, reason: 'unclosed' },
    ]);
    expect(parse(`${toolCallsBegin}${toolCallBegin}func`)).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
  });

  it('rejects unknown tools, keeping their markup out of the text', () => {
    const unknown = parse(`Sure.\n${section(stepCall('delete_all_files'))}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
  });
});
