/** The string-aware bracket scanner that locates a tool list's raw text in a body. */
import { describe, expect, it } from 'vitest';
import { findJsonContainerEnd } from '../../src/plugins/json-container-end.js';

function endOf(text: string, start = 0): string | undefined {
  const end = findJsonContainerEnd(text, start);
  return end === -1 ? undefined : text.slice(start, end);
}

describe('findJsonContainerEnd', () => {
  it('ends at the matching bracket, across nested arrays and objects', () => {
    expect(endOf('[1,[2,{"a":[3]}],{}] , "rest"]')).toBe('[1,[2,{"a":[3]}],{}]');
    expect(endOf('{"tools":[{"x":1}]}, 2', 9)).toBe('[{"x":1}]');
    expect(endOf('{"a":{"b":{}}}}')).toBe('{"a":{"b":{}}}');
  });

  it('ignores brackets, braces and escaped quotes inside strings', () => {
    const text = '["a]b", "c\\"]", "d\\\\", "{[", "\\\\\\"]"] tail';
    expect(endOf(text)).toBe(text.slice(0, text.indexOf(' tail')));
    expect(JSON.parse(endOf(text)!)).toEqual(['a]b', 'c"]', 'd\\', '{[', '\\"]']);
  });

  it('gives -1 when the container or a string never closes', () => {
    expect(findJsonContainerEnd('[1,[2]', 0)).toBe(-1);
    expect(findJsonContainerEnd('["abc]', 0)).toBe(-1);
    expect(findJsonContainerEnd('["abc\\"]', 0)).toBe(-1);
  });
});
