import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('seed-oss');

testFamilyTable(format);

/** A call as the template writes it: `<parameter=K>V</parameter>` lines inside one function block. */
const seedCall = (name: string, parameters: Record<string, string> = {}) =>
  `<seed:tool_call>\n<function=${name}>\n${Object.entries(parameters)
    .map(([key, value]) => `<parameter=${key}>${value}</parameter>\n`)
    .join('')}</function>\n</seed:tool_call>`;

describe('seed-oss: parsing', () => {
  it('reads a call with text before it, typing values with the schema', () => {
    expect(parse(`Let me check.\n${seedCall('search_web', { query: 'seed oss', max_results: '3' })}`)).toEqual([
      { type: 'text', text: 'Let me check.\n' },
      call('search_web', { query: 'seed oss', max_results: 3 }),
    ]);
  });

  it('drops a newline frame around a value, keeping the rest of its whitespace', () => {
    // llama.cpp's tests/chat-parsers/test-seed-oss.cpp: `<parameter=input>\ntest\n</parameter>` is "test";
    // vLLM's seed_oss parser removes one leading and one trailing newline, as for Qwen3-Coder.
    expect(parse(seedCall('search_web', { query: '\nseed oss\n', max_results: '\n3\n' }))).toEqual([
      call('search_web', { query: 'seed oss', max_results: 3 }),
    ]);
    expect(parse(seedCall('write_file', { path: 'a.py', content: '\n    x = 1\n\n' }))).toEqual([
      call('write_file', { path: 'a.py', content: '    x = 1\n' }),
    ]);
    expect(parse(seedCall('write_file', { path: 'a.py', content: '\r\nx = 1\r\ny = 2\r\n' }))).toEqual([
      call('write_file', { path: 'a.py', content: 'x = 1\r\ny = 2' }),
    ]);
    expect(parse(seedCall('search_web', { query: ' 42 ', max_results: ' 5\n' }))).toEqual([
      call('search_web', { query: ' 42 ', max_results: 5 }),
    ]);
    // The template writes values tight against their tags: an edge newline alone is the value's own.
    expect(parse(seedCall('write_file', { path: '\nx', content: 'x = 1\n' }))).toEqual([
      call('write_file', { path: '\nx', content: 'x = 1\n' }),
    ]);
    expect(parse(seedCall('write_file', { path: 'a', content: '\n' }))).toEqual([call('write_file', { path: 'a', content: '\n' })]);
  });

  it('reads several calls, in one wrapper or several', () => {
    const two =
      '<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n<function=get_time>\n</function>\n</seed:tool_call>';
    expect(parse(two)).toEqual([call('get_weather', { city: 'Paris' }), call('get_time', {})]);
    expect(parse(`${seedCall('get_time')}\n${seedCall('get_weather', { city: 'Lyon' })}`)).toEqual([
      call('get_time', {}),
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Lyon' }),
    ]);
  });

  it('streams <seed:think> as reasoning, where a quoted call is not a call', () => {
    expect(parse(`<seed:think>I could write ${seedCall('get_time')} here.</seed:think>The answer is 4.`)).toEqual([
      { type: 'reasoning', text: `I could write ${seedCall('get_time')} here.` },
      { type: 'text', text: 'The answer is 4.' },
    ]);
    expect(parse(`The user wants the time.</seed:think>\n${seedCall('get_time')}<seed:eos>`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants the time.' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('keeps nested JSON, unicode and markup inside values', () => {
    expect(
      parse(seedCall('create_event', { title: 'Réunion {hebdo} 🗓️', attendees: '["a@x.io"]', options: '{"remind": true, "minutes": 10}' })),
    ).toEqual([call('create_event', { title: 'Réunion {hebdo} 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
    expect(parse(seedCall('write_file', { path: 'x.md', content: 'use </seed:tool_call> and <function=x> literally' }))).toEqual([
      call('write_file', { path: 'x.md', content: 'use </seed:tool_call> and <function=x> literally' }),
    ]);
  });

  it('reports a cut-off call as unparsed, never as a call', () => {
    const cut = '<seed:tool_call>\n<function=search_web>\n<parameter=query>half a quer';
    expect(parse(`Searching.\n${cut}`)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'seed-oss', text: cut, reason: 'unclosed' },
    ]);
  });

  it('rejects unknown tools, keeping the markup out of the text', () => {
    const unknown = parse(`Sure.\n${seedCall('delete_all_files', { confirm: 'true' })}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
  });
});
