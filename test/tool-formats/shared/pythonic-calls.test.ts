import { describe, expect, it } from 'vitest';
import { formatPythonCall, formatPythonValue } from '../../../tool-formats/shared/format-python-call.js';
import { readPythonicCalls } from '../../../tool-formats/shared/pythonic-calls.js';

const calls = (text: string) => {
  const read = readPythonicCalls(text);
  if (read.type === 'error') throw new Error(read.message);
  return read.calls;
};

describe('readPythonicCalls', () => {
  it('reads a bracketed list of calls with keyword arguments', () => {
    expect(calls('[get_weather(city="Paris"), get_time()]')).toEqual([
      { name: 'get_weather', positional: [], keywords: { city: 'Paris' } },
      { name: 'get_time', positional: [], keywords: {} },
    ]);
  });

  it('reads Python literals of every kind', () => {
    const [call] = calls(
      `[f(a=True, b=False, c=None, d=-1.5e3, e=0x1F, f=1_000, g='it\\'s', h="""multi\nline""", i=r'C:\\new', j=[1, (2, 3), {'k': [None]}], k=(4))]`,
    );
    expect(call?.keywords).toEqual({
      a: true,
      b: false,
      c: null,
      d: -1500,
      e: 31,
      f: 1000,
      g: "it's",
      h: 'multi\nline',
      i: 'C:\\new',
      j: [1, [2, 3], { k: [null] }],
      k: 4,
    });
  });

  it('reads JSON literals too (Olmo)', () => {
    expect(calls('f(a=true, b=null)')[0]?.keywords).toEqual({ a: true, b: null });
  });

  it('reads unbracketed calls separated by newlines, commas or semicolons', () => {
    expect(calls('a(x=1)\nb(y=2); c()').map((call) => call.name)).toEqual(['a', 'b', 'c']);
  });

  it('reads dotted names, positional values and **dict spreads', () => {
    expect(calls('[brave_search.call(query="x"), f(1, **{"from": 2, "my-key": 3})]')).toEqual([
      { name: 'brave_search.call', positional: [], keywords: { query: 'x' } },
      { name: 'f', positional: [1], keywords: { from: 2, 'my-key': 3 } },
    ]);
  });

  it('never evaluates: expressions and names are errors', () => {
    expect(readPythonicCalls('[f(a=os.system("rm"))]').type).toBe('error');
    expect(readPythonicCalls('[f(a=1 + 2)]').type).toBe('error');
    expect(readPythonicCalls('[f(a=x)]').type).toBe('error');
  });

  it('reports malformed and cut-off lists', () => {
    expect(readPythonicCalls('[f(a=1)').type).toBe('error');
    expect(readPythonicCalls('[f(a="unterminated)]').type).toBe('error');
    expect(readPythonicCalls('[]').type).toBe('error');
    expect(readPythonicCalls('[f(a=1)] trailing').type).toBe('error');
  });
});

describe('formatPythonCall', () => {
  it('writes keyword arguments with Python literals', () => {
    expect(formatPythonCall('f', { a: 'x "y"\n', b: true, c: null, d: [1, { e: false }] })).toBe(
      'f(a="x \\"y\\"\\n", b=True, c=None, d=[1, {"e": False}])',
    );
  });

  it('spreads keys that cannot be Python argument names', () => {
    expect(formatPythonCall('f', { from: 1, 'my-key': 2, ok: 3 })).toBe('f(ok=3, **{"from": 1, "my-key": 2})');
  });

  it('round-trips through the reader', () => {
    const values = { s: 'naïve ☕ \\ \' " \t', n: -0.25, list: [1, 'two', null], nested: { a: { b: [true] } }, from: 'kw' };
    const [call] = calls(`[${formatPythonCall('f', values)}]`);
    expect(call?.keywords).toEqual(values);
    expect(formatPythonValue('x')).toBe('"x"');
  });
});
