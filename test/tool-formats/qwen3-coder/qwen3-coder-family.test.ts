import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { getTime, standardTools, typed, writeFile } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('qwen3-coder');

testFamilyTable(format);

const parseWith = (tools: ToolDefinition[], text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
/** One `<tool_call>` block the way the chat template writes it. */
const block = (name: string, parameters: Record<string, string>) =>
  `<tool_call>\n<function=${name}>\n${Object.entries(parameters)
    .map(([key, value]) => `<parameter=${key}>\n${value}\n</parameter>\n`)
    .join('')}</function>\n</tool_call>`;

describe('qwen3-coder: rendering', () => {
  it('renders one call with raw string values and JSON for the rest', () => {
    expect(
      format.renderCall({
        name: 'create_event',
        arguments: '{"title":"Sync","attendees":["a@x.io"],"options":{"remind":true,"minutes":10},"extra":null}',
      }),
    ).toMatchInlineSnapshot(`
        "<tool_call>
        <function=create_event>
        <parameter=title>
        Sync
        </parameter>
        <parameter=attendees>
        ["a@x.io"]
        </parameter>
        <parameter=options>
        {"remind": true, "minutes": 10}
        </parameter>
        <parameter=extra>
        null
        </parameter>
        </function>
        </tool_call>"
      `);
    expect(format.renderCall({ name: 'get_time', arguments: '{}' })).toBe('<tool_call>\n<function=get_time>\n</function>\n</tool_call>');
  });
});

describe('qwen3-coder: parsing', () => {
  it('converts raw values with the schema (conformance qwen3-coder-xml)', () => {
    expect(
      parse(
        '<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/app.ts\n</parameter>\n<parameter=start_line>\n10\n</parameter>\n</function>\n</tool_call>',
      ),
    ).toEqual([call('read_file', { path: 'src/app.ts', start_line: 10 })]);
  });

  it('keeps inner newlines, blank lines and indentation, trimming one newline on each side (conformance qwen3-coder-multiline-value)', () => {
    const reply =
      'I\'ll create it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nhello.py\n</parameter>\n<parameter=content>\ndef main():\n    print("hi")\n\nmain()\n</parameter>\n</function>\n</tool_call>';
    expect(parse(reply)).toEqual([
      { type: 'text', text: "I'll create it.\n" },
      call('write_file', { path: 'hello.py', content: 'def main():\n    print("hi")\n\nmain()' }),
    ]);
    // AbstractCore's case: only the wrapper newlines go.
    expect(parse(block('write_file', { path: 'a.txt', content: 'line 1\n\n  line 3\n' }))).toEqual([
      call('write_file', { path: 'a.txt', content: 'line 1\n\n  line 3\n' }),
    ]);
    expect(
      parse(
        '<tool_call><function=write_file><parameter=path>a.txt</parameter><parameter=content>\n\n\tindented\n\n</parameter></function></tool_call>',
      ),
    ).toEqual([call('write_file', { path: 'a.txt', content: '\n\tindented\n' })]);
    expect(
      parse(
        '<tool_call>\r\n<function=write_file>\r\n<parameter=path>\r\na.txt\r\n</parameter>\r\n<parameter=content>\r\nx\r\n  y\r\n</parameter>\r\n</function>\r\n</tool_call>',
      ),
    ).toEqual([call('write_file', { path: 'a.txt', content: 'x\n  y' })]);
  });

  it('converts every schema type, and keeps a string that looks like a number a string', () => {
    const reply = block('typed', {
      code: '5123123',
      count: '-14',
      ratio: '3.14',
      enabled: 'True',
      nothing: 'null',
      tags: '["a", "b"]',
      config: "{'depth': 2, 'fast': True}",
      note: 'None',
      unknown: '{"guessed": 1}',
    });
    expect(parseWith([typed], reply)).toEqual([
      call('typed', {
        code: '5123123',
        count: -14,
        ratio: 3.14,
        enabled: true,
        nothing: null,
        tags: ['a', 'b'],
        config: { depth: 2, fast: true },
        note: null,
        unknown: { guessed: 1 },
      }),
    ]);
    // A value that does not fit its type is kept as text rather than dropped.
    expect(parseWith([typed], block('typed', { count: 'ten', tags: 'a, b' }))).toEqual([call('typed', { count: 'ten', tags: 'a, b' })]);
    expect(parseWith([typed], block('typed', { code: '', note: 'null value' }))).toEqual([call('typed', { code: '', note: 'null value' })]);
  });

  it('reads several functions in one envelope and repeated envelopes as parallel calls, in order', () => {
    const one =
      '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n<function=get_time>\n</function>\n</tool_call>';
    expect(parse(one)).toEqual([call('get_weather', { city: 'Paris' }), call('get_time', {})]);
    const two = `${block('get_weather', { city: 'Paris' })}\n${block('search_web', { query: 'Louvre hours', max_results: '3' })}`;
    expect(parse(two)).toEqual([
      call('get_weather', { city: 'Paris' }),
      { type: 'text', text: '\n' },
      call('search_web', { query: 'Louvre hours', max_results: 3 }),
    ]);
  });

  it('keeps text before and after calls, unicode and reasoning', () => {
    expect(parse(`Je vérifie ☀️…\n${block('get_weather', { city: 'São Paulo 日本' })}\nDone.`)).toEqual([
      { type: 'text', text: 'Je vérifie ☀️…\n' },
      call('get_weather', { city: 'São Paulo 日本' }),
      { type: 'text', text: '\nDone.' },
    ]);
    expect(parse(`<think>\nThe user wants the time.\n</think>\n\n${block('get_time', {})}`)).toEqual([
      { type: 'reasoning', text: 'The user wants the time.' },
      { type: 'text', text: '\n\n' },
      call('get_time', {}),
    ]);
    expect(parse(`Plan: call it.\n</think>\n${block('get_time', {})}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Plan: call it.' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('takes markers inside values as text: code with </tool_call>, and whole quoted tool-call blocks', () => {
    const code = 'const end = "</tool_call>";\nconst start = "<tool_call>";\nif (a < b) { return `</function>`; }';
    expect(parse(`${block('write_file', { path: 'a.ts', content: code })}after`)).toEqual([
      call('write_file', { path: 'a.ts', content: code }),
      { type: 'text', text: 'after' },
    ]);
    const doc = `# Calling tools\n${block('get_weather', { city: 'Paris' })}\nThat is all.`;
    expect(parse(`${block('write_file', { path: 'README.md', content: doc })}\nWritten.`)).toEqual([
      call('write_file', { path: 'README.md', content: doc }),
      { type: 'text', text: '\nWritten.' },
    ]);
  });

  it('repairs what Qwen3-Coder leaves out', () => {
    // No </tool_call> at the end of the reply, the functions complete (AbstractCore #49).
    expect(parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nLima\n</parameter>\n</function>\n')).toEqual([
      call('get_weather', { city: 'Lima' }),
    ]);
    // No </function>: the function runs to the end of the envelope.
    expect(parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nLima\n</parameter>\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Lima' }),
    ]);
    // No </parameter>: the value ends where the next parameter or </function> starts a line.
    expect(
      parse(
        '<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n<parameter=start_line>\n3\n</parameter>\n</function>\n</tool_call>\nok',
      ),
    ).toEqual([call('read_file', { path: 'a.txt', start_line: 3 }), { type: 'text', text: '\nok' }]);
    expect(parse('<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n</function>\n</tool_call>\nok')).toEqual([
      call('read_file', { path: 'a.txt' }),
      { type: 'text', text: '\nok' },
    ]);
    // No opening <tool_call> (QwenLM/Qwen3-Coder#475): its orphan closing tag goes with the call.
    expect(
      parse("I'll fetch it.\n\n<function=search_web>\n<parameter=query>\nexample.com\n</parameter>\n</function>\n</tool_call>\nDone"),
    ).toEqual([
      { type: 'text', text: "I'll fetch it.\n\n" },
      call('search_web', { query: 'example.com' }),
      { type: 'text', text: '\nDone' },
    ]);
    expect(parse('<function=get_time>\n</function>\n\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>')).toEqual([
      call('get_time', {}),
      { type: 'text', text: '\n\n' },
      call('get_weather', { city: 'Oslo' }),
    ]);
    // Doubled open tags, and a Hermes JSON body under the same tag.
    expect(parse('<tool_call><tool_call>\n<function=get_time>\n</function>\n</tool_call>')).toEqual([call('get_time', {})]);
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>')).toEqual([
      call('get_weather', { city: 'Rome' }),
    ]);
  });

  it('strips the functions. namespace and rejects tools that were not offered, keeping the markup out of the text', () => {
    const browserProbe: ToolDefinition = {
      name: 'browser_probe',
      parameters: {
        type: 'object',
        properties: { target: { type: 'string' }, expect_text: { type: 'string' }, timeout_s: { type: 'integer' } },
      },
    };
    const probe = (name: string) =>
      `<tool_call>\n<function=${name}>\n<parameter=target>\nfile:///tmp/test.html\n</parameter>\n<parameter=expect_text>\nALL TESTS PASSED\n</parameter>\n<parameter=timeout_s>\n30\n</parameter>\n</function>\n</tool_call>`;
    expect(parseWith([browserProbe, writeFile], probe('functions.browser_probe'))).toEqual([
      call('browser_probe', { target: 'file:///tmp/test.html', expect_text: 'ALL TESTS PASSED', timeout_s: 30 }),
    ]);
    const events = parseWith([browserProbe, writeFile], `Trying.\n${probe('acme.no_such_tool')}`);
    expect(events).toMatchObject([
      { type: 'text', text: 'Trying.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool', text: probe('acme.no_such_tool') },
    ]);
    expect(textOf(events)).not.toMatch(/no_such_tool|<function=|parameter/);
  });

  it('rejects unreadable blocks as invalid_tool_syntax', () => {
    // The calls before a broken block stand; the broken one is reported.
    expect(parse('<tool_call>\n<function=get_time>\n</function>\n<function=get_weather>\nParis\n</function>\n</tool_call>')).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('never surfaces a cut-off call', () => {
    const cutOffs = [
      // AbstractCore #48: cut inside a value.
      '<tool_call>\n<function=search_web>\n<parameter=query>\nhttps://aiweekly.co/ai-',
      '<tool_call>\n<function=search_web>\n<parameter=qu',
      '<tool_call>\n<function=search_w',
      // Between parameters: more may have been coming.
      '<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n</parameter>\n',
      // A value holding </tool_call>, then the reply stops inside it.
      '<tool_call>\n<function=write_file>\n<parameter=path>\na.ts\n</parameter>\n<parameter=content>\nconst end = "</tool_call>";\n',
      '<function=search_web>\n<parameter=query>\nnews',
    ];
    for (const reply of cutOffs)
      expect(parse(`Looking.\n${reply}`)).toEqual([
        { type: 'text', text: 'Looking.\n' },
        { type: 'tool-call-unparsed', format: 'qwen3-coder', text: reply, reason: 'unclosed' },
      ]);
    // No </parameter> and a </tool_call> inside the value: the value may hold that tag and have been
    // cut off, so it is no call.
    expect(parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</tool_call>')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
    // Cut inside </function> or </tool_call>: every parameter is complete.
    expect(parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nLima\n</parameter>\n</func')).toEqual([
      call('get_weather', { city: 'Lima' }),
    ]);
    expect(parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nLima\n</parameter>\n</function>\n</tool_')).toEqual([
      call('get_weather', { city: 'Lima' }),
    ]);
  });

  it('round-trips values with edge whitespace, empty strings and markup', () => {
    for (const callArguments of [
      { path: ' a ', content: '\n\nx\n\n' },
      { path: '', content: 'a </function> b\n</function>\n</tool_call>\nc' },
      { path: 'p', content: '<parameter=x>\n1\n</parameter>' },
    ]) {
      const rendered = format.renderCall({ name: 'write_file', arguments: JSON.stringify(callArguments) });
      expect(parse(rendered)).toEqual([call('write_file', callArguments)]);
    }
  });
});

testChunkingInvariance({
  name: 'qwen3-coder',
  createParser: () => format.createParser([...standardTools, getTime]),
  samples: [
    "I'll check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>\nDone.",
    '<think>\nplan\n</think>\n\n<tool_call>\n<function=write_file>\n<parameter=path>\na.ts\n</parameter>\n<parameter=content>\nx = "</tool_call>"\n<parameter=y>\n1\n</parameter>\n\n</parameter>\n</function>\n</tool_call>',
    'Text <function=get_time>\n</function>\n</tool_call> and <function=search_web>\n<parameter=query>\nq\n</function>   \n\n</tool_',
    '<tool_call>\n<function=nope>\n</function>\n</tool_call><tool_call>\n<web.search>\n</tool_call><tool_call>\n<function=read_file>\n<parameter=pa',
  ],
  fragments: [
    '<tool_call>',
    '</tool_call>',
    '<tool_call>\n',
    '<function=',
    '<function=get_weather>\n',
    '</function>',
    '<parameter=',
    '<parameter=city>\n',
    '\n</parameter>\n',
    '\n<parameter=query>\n',
    '<think>\n',
    '\n</think>',
    block('search_web', { query: 'a </tool_call> b', max_results: '2' }),
    block('write_file', { path: 'x', content: block('get_time', {}) }),
    '<function=get_time>\n</function>\n</tool_call>',
    '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>',
  ],
});
