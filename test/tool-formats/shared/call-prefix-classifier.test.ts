import { describe, expect, it } from 'vitest';
import { classifyCallPrefix } from '../../../tool-formats/shared/call-prefix-classifier.js';
import { createToolRoster } from '../../../tool-formats/shared/tool-roster.js';
import { getTime, getWeather } from '../helpers/tools.js';

const roster = createToolRoster([getWeather, getTime]);
const classify = (text: string) => classifyCallPrefix(text, roster);

describe('classifyCallPrefix', () => {
  it('holds what could still be a call', () => {
    for (const text of ['', '  ', '{', '{"na', '{"name"', '{"name": ', '{"name": "get_w', '[', '[ {', '[get_w', '[get_weather', '{name']) {
      expect(classify(text), text).toEqual({ type: 'undecided' });
    }
  });

  it('recognises call shapes that name an offered tool', () => {
    for (const text of [
      '{"name": "get_weather"',
      "{'name': 'functions.get_time'",
      '[{"name": "get_time"',
      '[get_weather(',
      '{"type": "function"',
      '{"tool_calls": [',
      '{"arguments": {}',
      '{"function": {"name"',
    ]) {
      expect(classify(text), text).toEqual({ type: 'call-like' });
    }
  });

  it('releases JSON answers as soon as they cannot be calls, at a stable position', () => {
    expect(classify('{"name": "Alice", "age": 31}')).toEqual({ type: 'not-call', end: 16 });
    expect(classify('{"name": "Alice"')).toEqual({ type: 'not-call', end: 16 });
    expect(classify('{"answer": 42}')).toEqual({ type: 'not-call', end: 9 });
    expect(classify('{}')).toEqual({ type: 'not-call', end: 2 });
    expect(classify('[1, 2]')).toEqual({ type: 'not-call', end: 2 });
    expect(classify('[link](http://x)')).toEqual({ type: 'not-call', end: 5 });
    expect(classify('[unknown_tool(x=1)]')).toEqual({ type: 'not-call', end: 13 });
    expect(classify('\nplain')).toEqual({ type: 'not-call', end: 2 });
    expect(classify('{"name": 5}')).toEqual({ type: 'not-call', end: 10 });
  });

  it('gives the same answer for every longer prefix (monotone)', () => {
    const text = '{"name": "Alice", "age": 31, "city": "Rome"}';
    const final = classify(text);
    for (let length = 0; length <= text.length; length++) {
      const answer = classify(text.slice(0, length));
      if (answer.type !== 'undecided') expect(answer).toEqual(final);
    }
  });

  it('reads escapes in quoted keys and names, and any Unicode space between tokens', () => {
    expect(classify('{"na\\u006de": "get_weather"')).toEqual({ type: 'not-call', end: 12 });
    expect(classify('{"name": "get_\\weather"')).toEqual({ type: 'call-like' });
    expect(classify('{"name": "get_weather\\"')).toEqual({ type: 'undecided' });
    expect(classify('{"name": "get_weather\\')).toEqual({ type: 'undecided' });
    expect(classify('\u00a0\u2003{\u3000"name":\u202f"get_time"')).toEqual({ type: 'call-like' });
    expect(classify('\t\v\f\r\n[ {"name": "get_time"')).toEqual({ type: 'call-like' });
    expect(classify('\u200b{"name": "get_time"')).toEqual({ type: 'not-call', end: 1 });
  });
});
