import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { familySpecs } from '../../../tool-formats/index.js';
import { createEnvelopeCatalogue } from '../../../tool-formats/shared/envelope-catalogue.js';
import { createReplyParser } from '../../../tool-formats/shared/reply-parser.js';
import { createToolRoster } from '../../../tool-formats/shared/tool-roster.js';
import { expectChunkingInvariant, parseWhole } from '../helpers/chunking-invariance.js';
import { getTime, getWeather, searchWeb, writeFile } from '../helpers/tools.js';

const syntax = createEnvelopeCatalogue(familySpecs).syntaxFor('hermes');
const roster = createToolRoster([getWeather, searchWeb, getTime, writeFile]);
const parser = (startsInReasoning = false) => createReplyParser(syntax, roster, { startsInReasoning });
const parse = (text: string) => expectChunkingInvariant(() => parser(), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

describe('reply parser: text', () => {
  it('emits text with "<", "|" and backticks at once when they cannot start a marker', () => {
    const text = 'If a < b and <b>bold</b> text, use <tool> carefully; 3 <| 4. `x` ``y`` done';
    expect(parser().push(text)).toEqual([{ type: 'text', text }]);
  });

  it('holds back only a possible partial marker', () => {
    const streaming = parser();
    expect(streaming.push('Let me check. <tool_c')).toEqual([{ type: 'text', text: 'Let me check. ' }]);
    expect(streaming.push('ar')).toEqual([{ type: 'text', text: '<tool_car' }]);
    expect(streaming.push(' ```')).toEqual([{ type: 'text', text: ' ' }]);
    expect(streaming.push('python')).toEqual([{ type: 'text', text: '```python' }]);
    expect(streaming.finish()).toEqual([]);
  });

  it('flushes a held partial marker at the end', () => {
    const streaming = parser();
    expect(streaming.push('a <tool_')).toEqual([{ type: 'text', text: 'a ' }]);
    expect(streaming.finish()).toEqual([{ type: 'text', text: '<tool_' }]);
  });

  it('leaves what earlier pushes returned alone while a call body streams on in small chunks', () => {
    const streaming = parser();
    const body = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call> after';
    const results: (readonly ParsedEvent[])[] = [];
    for (let index = 0; index < body.length; index += 4) results.push(streaming.push(body.slice(index, index + 4)));
    results.push(streaming.finish());
    const events = results.flat();
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(events.map((event) => (event.type === 'text' ? event.text : '')).join('')).toBe(' after');
    expect(results.filter((events) => events.length === 0).length).toBeGreaterThan(10);
  });

  it('keeps whitespace-only text', () => {
    expect(parse('\n\n  \t')).toEqual([{ type: 'text', text: '\n\n  \t' }]);
  });
});

describe('reply parser: reasoning', () => {
  it('streams <think> as reasoning, dropping one newline next to each tag', () => {
    const streaming = parser();
    expect(streaming.push('<think>\nFirst')).toEqual([{ type: 'reasoning', text: 'First' }]);
    expect(streaming.push(' line.\n')).toEqual([{ type: 'reasoning', text: ' line.' }]);
    expect(streaming.push('\n')).toEqual([{ type: 'reasoning', text: '\n' }]);
    expect(streaming.push('</think>\n\nAnswer.')).toEqual([{ type: 'text', text: '\n\nAnswer.' }]);
  });

  it('keeps reasoning text as is otherwise', () => {
    expect(parse('<think>\n\n  a\n\nb  \n\n</think>')).toEqual([{ type: 'reasoning', text: '\n  a\n\nb  \n' }]);
    expect(parse('<think></think>x')).toEqual([{ type: 'text', text: 'x' }]);
  });

  it('never parses calls inside reasoning', () => {
    const text = '<think>I could write <tool_call>{"name": "get_time", "arguments": {}}</tool_call></think>Done.';
    expect(parse(text)).toEqual([
      { type: 'reasoning', text: 'I could write <tool_call>{"name": "get_time", "arguments": {}}</tool_call>' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('starts inside reasoning when the template opened <think>', () => {
    const text = 'reasoning only\n</think>\n\n<tool_call>{"name": "get_time", "arguments": {}}</tool_call>';
    expect(expectChunkingInvariant(() => parser(true), text)).toEqual([
      { type: 'reasoning', text: 'reasoning only' },
      { type: 'text', text: '\n\n' },
      call('get_time', {}),
    ]);
  });

  it('drops an open tag the model writes anyway when the template already opened <think>', () => {
    const text = '<think>\nNeed fresh data.</think>\n\nAnswer';
    expect(expectChunkingInvariant(() => parser(true), text)).toEqual([
      { type: 'reasoning', text: 'Need fresh data.' },
      { type: 'text', text: '\n\nAnswer' },
    ]);
    // Only at the very start: a later <think> is reasoning text like any other.
    expect(expectChunkingInvariant(() => parser(true), 'a <think> b</think>c')).toEqual([
      { type: 'reasoning', text: 'a <think> b' },
      { type: 'text', text: 'c' },
    ]);
    // Text that only starts like the tag is kept.
    expect(expectChunkingInvariant(() => parser(true), '<thinking>x</think>')).toEqual([{ type: 'reasoning', text: '<thinking>x' }]);
    expect(parseWhole(() => parser(true), '<thi')).toEqual([
      { type: 'reasoning', text: '<thi' },
      { type: 'warning', code: 'reasoning-unclosed', message: expect.any(String) },
      { type: 'text', text: '<thi' },
    ]);
  });

  it('streams a template-opened block that never closes as reasoning, then reads it again as the reply, calls and all', () => {
    // Long enough for most chunks to be taken whole, with a newline and a `<` near many chunk ends.
    const text =
      'I will look it up first, then f\nanswer a < b.\n'.repeat(6) +
      '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>\nDone <|x';
    const events = expectChunkingInvariant(() => parser(true), text);
    expect(events).toEqual([
      { type: 'reasoning', text },
      { type: 'warning', code: 'reasoning-unclosed', message: expect.any(String) },
      { type: 'text', text: 'I will look it up first, then f\nanswer a < b.\n'.repeat(6) },
      call('get_time', {}),
      { type: 'text', text: '\nDone <|x' },
    ]);
  });

  it('reports unterminated reasoning as reasoning', () => {
    expect(parse('<think>\nstill thinking\n')).toEqual([{ type: 'reasoning', text: 'still thinking\n' }]);
  });

  it('removes a stray </think> from the text when the reply did not start in reasoning, with a warning', () => {
    expect(parse('a</think>b')).toEqual([
      { type: 'text', text: 'a' },
      { type: 'warning', code: 'reasoning-orphan-close', message: expect.any(String) },
      { type: 'text', text: 'b' },
    ]);
  });
});

describe('reply parser: bare JSON', () => {
  it('reads a bare call on its own line after text (Llama 3 JSON, pythonic lists)', () => {
    expect(parse('I will check.\n{"name": "get_weather", "parameters": {"city": "Rome"}}')).toEqual([
      { type: 'text', text: 'I will check.\n' },
      call('get_weather', { city: 'Rome' }),
    ]);
    expect(parse('Checking both.\n[get_weather(city="Nice"), get_time()]\nDone.')).toEqual([
      { type: 'text', text: 'Checking both.\n' },
      call('get_weather', { city: 'Nice' }),
      call('get_time', {}),
      { type: 'text', text: '\nDone.' },
    ]);
  });

  it('keeps JSON and brackets on their own lines as text when they are no call to an offered tool', () => {
    const prose = 'Config:\n{"name": "Alice", "age": 31}\n[1] see notes\n[delete_all()]\n  {"type": "function"}';
    expect(parse(prose)).toEqual([{ type: 'text', text: prose }]);
  });

  it('never makes bare JSON in the middle of a line a call', () => {
    const text = 'Call it like {"name": "get_time", "arguments": {}} and wait.';
    expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  it('makes a whole-message call object a call', () => {
    expect(parse('{"name": "search_web", "arguments": {"query": "tokyo population", "max_results": 5}}')).toEqual([
      call('search_web', { query: 'tokyo population', max_results: 5 }),
    ]);
  });

  it('releases a JSON answer as text as soon as it cannot be a call', () => {
    const streaming = parser();
    expect(streaming.push('{"name": "Al')).toEqual([]);
    expect(streaming.push('ice", "age"')).toEqual([{ type: 'text', text: '{"name": "Alice", "age"' }]);
    expect(streaming.push(': 31}')).toEqual([{ type: 'text', text: ': 31}' }]);
    expect(parse('{"name": "Alice", "age": 31}')).toEqual([{ type: 'text', text: '{"name": "Alice", "age": 31}' }]);
  });

  it('keeps a JSON answer naming an unknown tool as text, byte for byte', () => {
    const text = '  {"name": "delete_everything", "arguments": {}}\nDone';
    expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  it('keeps a call-shaped object with extra keys as text (bare JSON must be exactly a call)', () => {
    const text = '{"name": "get_weather", "city": "Paris"}';
    expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  it('reads several objects separated by "; " or newlines', () => {
    expect(
      parse('{"name": "get_time", "parameters": {}}; {"name": "get_weather", "parameters": {"city": "A"}}\n{"name": "get_time"}'),
    ).toEqual([call('get_time', {}), call('get_weather', { city: 'A' }), { type: 'text', text: '\n' }, call('get_time', {})]);
  });

  it('keeps a semicolon that separates nothing, or separates a JSON answer', () => {
    expect(parse('{"name": "get_time"}; done')).toEqual([call('get_time', {}), { type: 'text', text: '; done' }]);
    expect(parse('{"name": "get_time"};  {"note": 1}')).toEqual([call('get_time', {}), { type: 'text', text: ';  {"note": 1}' }]);
    expect(parse('{"name": "get_time"}; {"name": "nope", "arguments": {}}')).toEqual([
      call('get_time', {}),
      { type: 'text', text: '; {"name": "nope", "arguments": {}}' },
    ]);
  });

  it('finds bare calls after reasoning but not in the middle of prose', () => {
    expect(parse('<think>x</think>\n{"name": "get_time", "arguments": {}}')).toEqual([
      { type: 'reasoning', text: 'x' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
    const prose = 'Use {"name": "get_time", "arguments": {}} to ask.';
    expect(parse(prose)).toEqual([{ type: 'text', text: prose }]);
  });

  it('reads arrays, wrappers, the OpenAI shape and deep nesting', () => {
    expect(parse('[{"name": "get_time", "arguments": {}}, {"name": "get_weather", "arguments": {"city": "B"}}]')).toEqual([
      call('get_time', {}),
      call('get_weather', { city: 'B' }),
    ]);
    expect(parse('{"tool_calls": [{"name": "get_time", "arguments": {}}]}')).toEqual([call('get_time', {})]);
    expect(parse('{"type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"C\\"}"}}')).toEqual([
      call('get_weather', { city: 'C' }),
    ]);
    expect(parse('{"tool_call": {"name": "get_weather", "arguments": {"city": {"n": {"m": [1, {"k": "}"}]}}}}}')).toEqual([
      call('get_weather', { city: { n: { m: [1, { k: '}' }] } } }),
    ]);
  });

  it('reports a cut-off bare call to an offered tool as unclosed, and cut-off other JSON as text', () => {
    expect(parse('{"name": "search_web", "arguments": {"query": "x')).toEqual([
      { type: 'tool-call-unparsed', format: 'hermes', text: '{"name": "search_web", "arguments": {"query": "x', reason: 'unclosed' },
    ]);
    expect(parse('{"na')).toEqual([{ type: 'text', text: '{"na' }]);
    expect(parse('[')).toEqual([{ type: 'text', text: '[' }]);
  });

  it('rejects unknown tools in a batch that also calls an offered one', () => {
    expect(parse('[{"name": "get_time"}, {"name": "nope"}]')).toEqual([
      call('get_time', {}),
      {
        type: 'tool-call-rejected',
        code: 'unavailable_tool',
        message: expect.stringContaining('"nope"'),
        text: '[{"name": "get_time"}, {"name": "nope"}]',
      },
    ]);
  });

  it('releases prose that starts with a bracket at once', () => {
    for (const text of ['[1] See the notes.', '[docs](http://x.io) are here', '{ this is not json }'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
  });
});

describe('reply parser: ```json fences', () => {
  it('makes a fenced call to an offered tool a call', () => {
    expect(parse('Calling:\n```json\n{"name": "get_weather", "arguments": {"o": {"k": 1}}}\n```\nok')).toEqual([
      { type: 'text', text: 'Calling:\n' },
      call('get_weather', { o: { k: 1 } }),
      { type: 'text', text: '\nok' },
    ]);
  });

  it('keeps a fenced JSON answer in the text untouched', () => {
    const text =
      'Here:\n```json\n{"name": "Alice", "age": 31}\n```\nand ```json\n[1, 2]\n``` and ```json\n{"name": "nope", "arguments": {}}\n```';
    expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  it('does not end a fence at backticks inside a string', () => {
    expect(parse('```json\n{"name": "write_file", "arguments": {"path": "a.md", "content": "```js\\nx\\n```"}}\n```')).toEqual([
      call('write_file', { path: 'a.md', content: '```js\nx\n```' }),
    ]);
  });

  it('accepts an unclosed fence around a complete call', () => {
    expect(parse('```json\n{"name": "get_time", "arguments": {}}\n')).toEqual([call('get_time', {})]);
  });
});

describe('reply parser: explicit envelopes', () => {
  it('keeps text before, between and after calls', () => {
    const text =
      'Before.\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>\nBetween.<tool_call>{"name": "get_weather", "arguments": {"city": "Zürich 🇨🇭"}}</tool_call> After.';
    expect(parse(text)).toEqual([
      { type: 'text', text: 'Before.\n' },
      call('get_time', {}),
      { type: 'text', text: '\nBetween.' },
      call('get_weather', { city: 'Zürich 🇨🇭' }),
      { type: 'text', text: ' After.' },
    ]);
  });

  it('is string-aware: a closing tag inside a JSON string does not close the call', () => {
    expect(parse('<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "x </tool_call> y"}}</tool_call>')).toEqual([
      call('write_file', { path: 'a', content: 'x </tool_call> y' }),
    ]);
  });

  it('rejects unknown tools and unreadable bodies without leaking markup into the text', () => {
    expect(parse('Sure.\n<tool_call>\n{"name": "delete_all_files", "arguments": {}}\n</tool_call>')).toEqual([
      { type: 'text', text: 'Sure.\n' },
      {
        type: 'tool-call-rejected',
        code: 'unavailable_tool',
        message: expect.stringContaining('delete_all_files'),
        text: '<tool_call>\n{"name": "delete_all_files", "arguments": {}}\n</tool_call>',
      },
    ]);
    expect(parse('<tool_call>\nget weather for paris please\n</tool_call>')).toEqual([
      {
        type: 'tool-call-rejected',
        code: 'invalid_tool_syntax',
        message: expect.any(String),
        text: '<tool_call>\nget weather for paris please\n</tool_call>',
      },
    ]);
    expect(parse('<tool_call>{"name": "get_time", "arguments": [1]}</tool_call>')).toEqual([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: expect.stringContaining('array'), text: expect.any(String) },
    ]);
    expect(parse('<tool_call></tool_call>')).toEqual([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: 'The tool call is empty', text: '<tool_call></tool_call>' },
    ]);
  });

  it('accepts an unclosed envelope holding a complete call, and reports a cut-off one as unclosed', () => {
    expect(parse('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}')).toEqual([call('get_weather', { city: 'Lima' })]);
    expect(parse('Searching.\n<tool_call>\n{"name": "search_web", "argu')).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'hermes', text: '<tool_call>\n{"name": "search_web", "argu', reason: 'unclosed' },
    ]);
    expect(parse('<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}')).toEqual([
      {
        type: 'tool-call-unparsed',
        format: 'hermes',
        text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}',
        reason: 'unclosed',
      },
    ]);
  });

  it('repairs a missing brace when the closing tag came', () => {
    expect(parse('<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}</tool_call>')).toEqual([
      call('get_weather', { city: 'Lima' }),
    ]);
  });

  it('accepts stray punctuation and doubled tags', () => {
    expect(parse('<tool_call>>{"name": "get_time", "arguments": {}}</tool_call>')).toEqual([call('get_time', {})]);
    expect(parse('<|tool_call|><|tool_call|>{"name":"get_time","arguments":{}}</|tool_call|}')).toEqual([call('get_time', {})]);
    expect(parse('```tool_call>\n{"name": "get_time", "arguments": {}}\n```')).toEqual([call('get_time', {})]);
  });

  it('closes a call whose closing tag was forgotten before the next one', () => {
    expect(
      parse('<tool_call>{"name": "get_time", "arguments": {}}\n<tool_call>{"name": "get_weather", "arguments": {"city": "D"}}</tool_call>'),
    ).toEqual([call('get_time', {}), call('get_weather', { city: 'D' })]);
  });

  it('ignores prose after a complete call inside the envelope, even with an apostrophe', () => {
    expect(parse('<tool_call>{"name": "get_time", "arguments": {}} I\'ll wait.</tool_call>Then text.')).toEqual([
      call('get_time', {}),
      { type: 'text', text: 'Then text.' },
    ]);
  });

  it('recovers the text after an end marker hidden by a stray quote', () => {
    expect(parse('<tool_call>{"name": "get_time", "arguments": {"a": "x}}</tool_call>\nMore text.')).toEqual([
      { type: 'tool-call-unparsed', format: 'hermes', text: expect.stringContaining('More text.'), reason: 'unclosed' },
    ]);
    expect(parse('<tool_call>{"name": "get_weather", "arguments": {"city": "E"}}"</tool_call>\nMore "text".')).toEqual([
      call('get_weather', { city: 'E' }),
      { type: 'text', text: '\nMore "text".' },
    ]);
  });

  it('takes every family syntax as a fallback', () => {
    expect(parse('<function_call>{"name": "get_time", "arguments": {}}</function_call>')).toEqual([call('get_time', {})]);
    expect(parse('<|python_tag|>{"name": "get_time", "parameters": {}}')).toEqual([call('get_time', {})]);
    expect(parse('[get_weather(city="F")]')).toEqual([call('get_weather', { city: 'F' })]);
    expect(parse('```tool_call\n{"name": "get_time", "arguments": {}}\n```')).toEqual([call('get_time', {})]);
    expect(parse('x <|tool_call_start|>[get_time()]<|tool_call_end|>')).toEqual([{ type: 'text', text: 'x ' }, call('get_time', {})]);
  });

  it('keeps model-provided ids and strips the functions. namespace', () => {
    expect(parse('<tool_call>{"id": "call_7", "name": "functions.get_time", "arguments": {}}</tool_call>')).toEqual([
      { type: 'tool-call', name: 'get_time', arguments: '{}', id: 'call_7' },
    ]);
  });
});

describe('reply parser: lifecycle', () => {
  it('refuses pushes after finish and finishes once', () => {
    const finished = parser();
    finished.push('x');
    expect(finished.finish()).toEqual([]);
    expect(finished.finish()).toEqual([]);
    expect(() => finished.push('y')).toThrow();
  });

  it('parses a 2 MB reply in one push', () => {
    const big =
      'word '.repeat(200_000) +
      '<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "' +
      'x'.repeat(1_000_000) +
      '"}}</tool_call>';
    const events = parseWhole(() => parser(), big);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ type: 'tool-call', name: 'write_file' });
  });
});

describe('reply parser: chunks held with a partial marker', () => {
  it('lets the body scanner read chunks held with a partial marker before the reply ends inside the body', () => {
    // The reply ends while the parser holds `<|start|>assistant`, a prefix of a longer marker of the
    // envelope: the scanner must still see it as body (the next message's start rejects this one).
    const museSyntax = createEnvelopeCatalogue(familySpecs).syntaxFor('muse-glimmer');
    const reply =
      '<|start|>assistant to=nope<|message|><atem:function_calls>\n<atem:invoke name="nope">\n</atem:invoke>\n</atem:function_calls><|eom|><|start|>assistant to=get_ti<|start|>assistant';
    const events = expectChunkingInvariant(() => createReplyParser(museSyntax, roster), reply);
    expect(events.at(-1)).toEqual({ type: 'text', text: '<|start|>assistant' });
  });

  it('reads a long marker that arrives a character at a time once, as the marker or as text', () => {
    const deepseek = createEnvelopeCatalogue(familySpecs).syntaxFor('deepseek');
    const marker = '<｜tool▁calls▁begin｜>';
    expect(expectChunkingInvariant(() => createReplyParser(deepseek, roster), `a ${marker.slice(0, -2)}x b`)).toEqual([
      { type: 'text', text: `a ${marker.slice(0, -2)}x b` },
    ]);
  });
});
