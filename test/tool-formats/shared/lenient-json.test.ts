import { describe, expect, it } from 'vitest';
import { parseLenientJson, readLenientJson } from '../../../tool-formats/shared/lenient-json.js';

const value = (text: string, options = {}) => {
  const parsed = parseLenientJson(text, options);
  if (parsed.type === 'error') throw new Error(parsed.message);
  return parsed.value;
};

describe('parseLenientJson', () => {
  it('reads standard JSON exactly like JSON.parse', () => {
    const text = '{"a": [1, 2.5, -3e2, true, false, null], "b": {"c": "d\\n\\u00e9\\ud83c\\udf89"}}';
    expect(value(text)).toEqual(JSON.parse(text));
  });

  it.each([
    ['trailing commas', '{"a": [1, 2,], "b": 3,}', { a: [1, 2], b: 3 }],
    [
      'single-quoted strings',
      "{'name': 'get_weather', 'arguments': {'city': 'Paris'}}",
      { name: 'get_weather', arguments: { city: 'Paris' } },
    ],
    ['Python literals', "{'flag': True, 'off': False, 'v': None}", { flag: true, off: false, v: null }],
    ['a literal newline inside a string', '{"content": "line1\nline2\n"}', { content: 'line1\nline2\n' }],
    ['a literal tab inside a string', '{"content": "a\tb"}', { content: 'a\tb' }],
    ['unquoted keys', '{name: "a", arguments: {x: 1}}', { name: 'a', arguments: { x: 1 } }],
    ['a missing comma between members', '{"a": 1 "b": 2}', { a: 1, b: 2 }],
    ['an escaped single quote', "{'text': 'it\\'s'}", { text: "it's" }],
    ['unknown escapes (kept like Python)', '{"path": "C:\\Users\\me"}', { path: 'C:\\Users\\me' }],
    ['a leading plus and a bare decimal point', '{"a": +1, "b": .5, "c": 2.}', { a: 1, b: 0.5, c: 2 }],
  ])('repairs %s', (_name, text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it('never touches words inside strings', () => {
    const text = "{'a': 'true False None null', \"b\": \"it's True\", 'c': \"None, 'quoted' \\\"x\\\"\"}";
    expect(value(text)).toEqual({ a: 'true False None null', b: "it's True", c: 'None, \'quoted\' "x"' });
  });

  it('keeps string content with JSON-looking text byte for byte', () => {
    expect(value("{'code': '{\"a\": True}, [1,]'}")).toEqual({ code: '{"a": True}, [1,]' });
  });

  it('closes open brackets only when asked and only after a complete value', () => {
    expect(parseLenientJson('{"a": {"b": 1}').type).toBe('error');
    expect(value('{"a": {"b": 1}', { closeOpenBrackets: true })).toEqual({ a: { b: 1 } });
    expect(value('[1, [2', { closeOpenBrackets: true })).toEqual([1, [2]]);
    expect(parseLenientJson('{"a": "unterminated', { closeOpenBrackets: true }).type).toBe('error');
    expect(parseLenientJson('{"a":', { closeOpenBrackets: true }).type).toBe('error');
  });

  it('reports a cut-off payload as incomplete and a malformed one as not', () => {
    expect(parseLenientJson('{"name": "search_web", "argu')).toMatchObject({ type: 'error', incomplete: true });
    expect(parseLenientJson('{"a": 1')).toMatchObject({ type: 'error', incomplete: true });
    expect(parseLenientJson('{"a": nope}')).toMatchObject({ type: 'error', incomplete: false });
  });

  it('rejects text after the value and unknown words', () => {
    expect(parseLenientJson('{"a": 1} tail').type).toBe('error');
    expect(parseLenientJson('{"a": undefined}').type).toBe('error');
    expect(parseLenientJson('{"a": NaN}').type).toBe('error');
  });

  it('keeps a __proto__ key as data, never as the prototype', () => {
    const parsed = value("{'__proto__': {'polluted': true}, 'a': 1}") as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(parsed)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('fails cleanly instead of overflowing the stack on absurd nesting', () => {
    expect(parseLenientJson('['.repeat(100_000)).type).toBe('error');
  });

  // Valid JSON took JSON.parse's path with no bound, and the walks after it (the non-finite number check,
  // schema coercion, JSON.stringify) overflowed the stack: a 500, or a stream that never ended.
  it('refuses valid JSON nested past the bound exactly as it refuses repaired JSON nested that deep', () => {
    const nested = (depth: number, tail: string) => `${'{"a":'.repeat(depth)}1${tail}${'}'.repeat(depth)}`;
    expect(parseLenientJson(nested(100_000, ''))).toMatchObject({ type: 'error', message: 'Too deeply nested', incomplete: false });
    for (const depth of [200, 201, 202])
      expect(parseLenientJson(nested(depth, '')).type, String(depth)).toBe(parseLenientJson(nested(depth, ',')).type);
  });
});

describe('readLenientJson', () => {
  it('reads one value and says where it ended', () => {
    const text = '{"name": "a"}; {"name": "b"}';
    const first = readLenientJson(text);
    expect(first).toEqual({ type: 'value', value: { name: 'a' }, end: 13 });
    expect(readLenientJson(text, 14)).toMatchObject({ type: 'value', value: { name: 'b' } });
  });
});
