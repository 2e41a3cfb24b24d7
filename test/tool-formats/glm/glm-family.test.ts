import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { getWeather, typed } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('glm');

testFamilyTable(format);

const parseWith = (tools: ToolDefinition[], text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
/** A GLM-4.5 call (one tag per line); `compact` writes GLM-4.7's form without newlines. */
const glmCall = (name: string, pairs: Record<string, string>, compact = false) => {
  const newline = compact ? '' : '\n';
  const body = Object.entries(pairs)
    .map(([key, value]) => `<arg_key>${key}</arg_key>${newline}<arg_value>${value}</arg_value>${newline}`)
    .join('');
  return `<tool_call>${name}${newline}${body}</tool_call>`;
};

describe('glm: rendering', () => {
  it('renders one call in the GLM-4.5 form: strings as they are, other values as JSON', () => {
    expect(
      format.renderCall({
        name: 'create_event',
        arguments: '{"title":"Sync","attendees":["a@x.io"],"options":{"remind":true,"minutes":10}}',
      }),
    ).toMatchInlineSnapshot(`
      "<tool_call>create_event
      <arg_key>title</arg_key>
      <arg_value>Sync</arg_value>
      <arg_key>attendees</arg_key>
      <arg_value>["a@x.io"]</arg_value>
      <arg_key>options</arg_key>
      <arg_value>{"remind": true, "minutes": 10}</arg_value>
      </tool_call>"
    `);
    expect(format.renderCall({ name: 'get_time', arguments: '{}' })).toBe('<tool_call>get_time\n</tool_call>');
  });
});

describe('glm: parsing', () => {
  it('reads GLM-4.5 calls (conformance glm45-arg-key-value) and GLM-4.7 calls without newlines', () => {
    const expected = [call('get_weather', { city: 'Beijing', unit: 'celsius' })];
    expect(parse(glmCall('get_weather', { city: 'Beijing', unit: 'celsius' }))).toEqual(expected);
    expect(parse(glmCall('get_weather', { city: 'Beijing', unit: 'celsius' }, true))).toEqual(expected);
    // AbstractCore #72, which AbstractCore itself did not read.
    expect(parse('<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Paris' }),
    ]);
    expect(parse('<tool_call>get_time\n</tool_call>')).toEqual([call('get_time', {})]);
  });

  it('keeps string values raw and reads the others as JSON, by the schema', () => {
    const reply = glmCall('typed', {
      code: '5123123',
      count: '7',
      ratio: '-0.5',
      enabled: 'false',
      nothing: 'null',
      tags: '["a", "b"]',
      config: '{"depth": 2, "fast": true}',
      unknown: '[1, 2]',
    });
    expect(parseWith([typed], reply)).toEqual([
      call('typed', {
        code: '5123123',
        count: 7,
        ratio: -0.5,
        enabled: false,
        nothing: null,
        tags: ['a', 'b'],
        config: { depth: 2, fast: true },
        unknown: [1, 2],
      }),
    ]);
    // Whitespace is part of a string value; JSON values may be padded.
    expect(parseWith([typed], glmCall('typed', { code: '  two spaces\n', count: ' 3 ', config: "{'python': True}" }))).toEqual([
      call('typed', { code: '  two spaces\n', count: 3, config: { python: true } }),
    ]);
  });

  it('reads repeated blocks as parallel calls, in order, with text and reasoning around them', () => {
    const reply = `<think>The user wants the weather in Beijing and Shanghai.</think>\nI will check both.\n${glmCall('get_weather', { city: 'Beijing' })}\n${glmCall('get_weather', { city: 'Shanghai' })}`;
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: 'The user wants the weather in Beijing and Shanghai.' },
      { type: 'text', text: '\nI will check both.\n' },
      call('get_weather', { city: 'Beijing' }),
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Shanghai' }),
    ]);
    expect(parse(`${glmCall('search_web', { query: 'Zürich 天气 🌧️', max_results: '5' })}\nDone.`)).toEqual([
      call('search_web', { query: 'Zürich 天气 🌧️', max_results: 5 }),
      { type: 'text', text: '\nDone.' },
    ]);
    // A forgotten </tool_call> between two calls.
    expect(parse(`${glmCall('get_weather', { city: 'Oslo' }).replace('</tool_call>', '')}${glmCall('get_time', {})}`)).toEqual([
      call('get_weather', { city: 'Oslo' }),
      call('get_time', {}),
    ]);
  });

  it('keeps multi-line code with indentation and markers in string values', () => {
    const content = 'def main():\n    print("</tool_call>")\n\n\treturn "<tool_call>x"\n';
    expect(parse(`${glmCall('write_file', { path: 'main.py', content })}after`)).toEqual([
      call('write_file', { path: 'main.py', content }),
      { type: 'text', text: 'after' },
    ]);
  });

  it('strips the functions. namespace and rejects tools that were not offered, keeping the markup out of the text', () => {
    expect(parse(glmCall('functions.get_weather', { city: 'Rome' }))).toEqual([call('get_weather', { city: 'Rome' })]);
    const events = parseWith([getWeather], `Sure.\n${glmCall('delete_all_files', { path: '/' })}`);
    expect(events).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(events)).not.toMatch(/delete_all_files|arg_/);
  });

  it('rejects unreadable blocks as invalid_tool_syntax', () => {
    const malformed = [
      '<tool_call>\nget weather for paris please\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city</arg_key>\nParis\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Paris</arg_value>\nand more\n</tool_call>',
      '<tool_call>get_weather\n<arg_key>city\n</tool_call>',
    ];
    for (const reply of malformed)
      expect(parse(reply)).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax', text: reply }]);
  });

  it('never surfaces a cut-off call', () => {
    const cutOffs = [
      '<tool_call>get_weather\n<arg_key>ci',
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Par',
      // Nothing marks the last pair: more may have been coming.
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n',
      '<tool_call>get_wea',
      // A value holding </tool_call>, then the reply stops inside it.
      '<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>x = "</tool_call>"',
    ];
    for (const reply of cutOffs)
      expect(parse(`Checking.\n${reply}`)).toEqual([
        { type: 'text', text: 'Checking.\n' },
        { type: 'tool-call-unparsed', format: 'glm', text: reply, reason: 'unclosed' },
      ]);
  });

  it("reads the other families' syntax under the same tag", () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Kyiv"}}\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Kyiv' }),
    ]);
    expect(parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nKyiv\n</parameter>\n</function>\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Kyiv' }),
    ]);
  });
});
