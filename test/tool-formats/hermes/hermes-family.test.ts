import { describe, expect, it } from 'vitest';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { createEvent, getWeather, readFile } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('hermes');

testFamilyTable(format);

describe('hermes: parsing', () => {
  it('reads a plain call and text before it', () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Rome' }),
    ]);
    expect(
      parse(
        'Let me check that for you.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>',
      ),
    ).toEqual([{ type: 'text', text: 'Let me check that for you.\n' }, call('get_weather', { city: 'Paris', unit: 'celsius' })]);
  });

  it('reads repeated blocks as parallel calls, in order', () => {
    const text =
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "search_web", "arguments": {"query": "Louvre hours"}}\n</tool_call>';
    expect(parse(text)).toEqual([
      call('get_weather', { city: 'Paris' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: 'Louvre hours' }),
    ]);
  });

  it('reads the <|tool_call|> variant', () => {
    expect(
      parse('<|tool_call|>\n{"name": "read_file", "arguments": {"path": "README.md", "start_line": 1, "end_line": 20}}\n</|tool_call|>'),
    ).toEqual([call('read_file', { path: 'README.md', start_line: 1, end_line: 20 })]);
  });

  it('reads reasoning and then a call (Qwen3)', () => {
    expect(
      parse(
        '<think>\nI should search for this.\n</think>\n\n<tool_call>\n{"name": "search_web", "arguments": {"query": "node 20 release date"}}\n</tool_call>',
      ),
    ).toEqual([
      { type: 'reasoning', text: 'I should search for this.' },
      { type: 'text', text: '\n\n' },
      call('search_web', { query: 'node 20 release date' }),
    ]);
    expect(
      parse('Okay, the user wants a search.\n</think>\n\n<tool_call>{"name": "search_web", "arguments": {"query": "q"}}</tool_call>', {
        startsInReasoning: true,
      }),
    ).toEqual([
      { type: 'reasoning', text: 'Okay, the user wants a search.' },
      { type: 'text', text: '\n\n' },
      call('search_web', { query: 'q' }),
    ]);
  });

  it('keeps deep nesting, braces in strings and unicode', () => {
    expect(
      parse(
        '<tool_call>\n{"name": "create_event", "arguments": {"title": "Sync {weekly} 🗓️", "attendees": ["a@x.io", "b@x.io"], "options": {"remind": true, "minutes": 10}}}\n</tool_call>',
      ),
    ).toEqual([
      call('create_event', { title: 'Sync {weekly} 🗓️', attendees: ['a@x.io', 'b@x.io'], options: { remind: true, minutes: 10 } }),
    ]);
  });

  it('repairs the usual slips: Python literals, single quotes, trailing commas, raw newlines, arguments as a string', () => {
    expect(
      parse(
        "<tool_call>\n{'name': 'create_event', 'arguments': {'title': 'A', 'options': {'remind': True, 'minutes': None,},},}\n</tool_call>",
      ),
    ).toEqual([call('create_event', { title: 'A', options: { remind: true, minutes: null } })]);
    expect(parse('<tool_call>{"name": "write_file", "arguments": {"path": "a.py", "content": "line1\nline2\n"}}</tool_call>')).toEqual([
      call('write_file', { path: 'a.py', content: 'line1\nline2\n' }),
    ]);
    expect(parse('<tool_call>{"name": "get_weather", "arguments": "{\\"city\\": \\"Kyiv\\"}"}</tool_call>')).toEqual([
      call('get_weather', { city: 'Kyiv' }),
    ]);
    expect(parse('<tool_call>{"type": "function", "function": {"name": "get_weather", "arguments": "{}"}}</tool_call>')).toEqual([
      call('get_weather', {}),
    ]);
    expect(parse('<tool_call>{"name": "get_weather", "city": "Flat"}</tool_call>')).toEqual([call('get_weather', { city: 'Flat' })]);
  });

  it("reads calls written in other families' syntax", () => {
    expect(parse('<function_call>{"name": "get_weather", "arguments": {"city": "Berlin"}}</function_call>')).toEqual([
      call('get_weather', { city: 'Berlin' }),
    ]);
    expect(parse('```tool_call\n{"name": "get_weather", "arguments": {"city": "Bern"}}\n```')).toEqual([
      call('get_weather', { city: 'Bern' }),
    ]);
    expect(parse('{"name": "get_weather", "arguments": {"city": "Bonn"}}')).toEqual([call('get_weather', { city: 'Bonn' })]);
  });

  it('rejects unknown tools, keeping their markup out of the text', () => {
    const events = parse('Sure.\n<tool_call>\n{"name": "delete_all_files", "arguments": {}}\n</tool_call>');
    expect(events[0]).toEqual({ type: 'text', text: 'Sure.\n' });
    expect(events[1]).toMatchObject({ type: 'tool-call-rejected', code: 'unavailable_tool' });
    expect(
      events
        .filter((event) => event.type === 'text')
        .map((event) => (event.type === 'text' ? event.text : ''))
        .join(''),
    ).not.toContain('delete_all_files');
  });

  it('handles cut-off replies', () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}')).toEqual([call('get_weather', { city: 'Lima' })]);
    expect(parse('Searching.\n<tool_call>\n{"name": "search_web", "argu')).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'hermes', text: '<tool_call>\n{"name": "search_web", "argu', reason: 'unclosed' },
    ]);
  });

  it('reads a call in the wrapper tags Hermes 2 Pro models also write, leaving none of the wrapper in the text', () => {
    // llama.cpp's tests/test-chat.cpp (COMMON_CHAT_FORMAT_HERMES_2_PRO): each of these is the call alone,
    // with empty content.
    const object = '{"name": "get_weather", "arguments": {"city": "Rome"}}';
    for (const tag of ['tool', 'tools', 'response', 'json', 'JSON', 'xml'])
      expect(parse(`<${tag}>\n  ${object}\n</${tag}>`), tag).toEqual([call('get_weather', { city: 'Rome' })]);
    expect(parse(`<xml>\n  {\n    "name": "get_weather", "arguments": {"city": "Rome"}\n  }\n</xml>`)).toEqual([
      call('get_weather', { city: 'Rome' }),
    ]);
    expect(parse(`Checking.\n<response>${object}</response> Done.`)).toEqual([
      { type: 'text', text: 'Checking.\n' },
      call('get_weather', { city: 'Rome' }),
      { type: 'text', text: ' Done.' },
    ]);
  });

  it('keeps those wrapper tags as text when they hold no call to an offered tool', () => {
    for (const text of [
      '<response>\n  {"name": "Alice", "age": 31}\n</response>',
      '<tools>\n  {"name": "delete_everything", "arguments": {}}\n</tools>',
      'Use <json> and <xml> tags, or a <response> element.',
      '<tool>hammer</tool> and <tool>',
    ])
      expect(parse(text), text).toEqual([{ type: 'text', text }]);
  });

  it('only makes calls to the tools of the request', () => {
    const onlyWeather = () => format.createParser([getWeather]);
    expect(expectChunkingInvariant(onlyWeather, '<tool_call>{"name": "read_file", "arguments": {"path": "x"}}</tool_call>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(
      expectChunkingInvariant(
        () => format.createParser([readFile, createEvent]),
        '<tool_call>{"name": "read_file", "arguments": {"path": "x"}}</tool_call>',
      ),
    ).toEqual([call('read_file', { path: 'x' })]);
  });
});
