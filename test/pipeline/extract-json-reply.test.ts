/** The JSON a model meant as its answer, found among prose that has brackets of its own. */
import { describe, expect, it } from 'vitest';
import { extractJsonReply } from '../../src/pipeline/extract-json-reply.js';
import { repairJsonText } from '../../tool-formats/shared/repair-json-text.js';

const extract = (text: string) => extractJsonReply(text, repairJsonText);

describe('extractJsonReply', () => {
  it.each([
    ['brackets in the prose before', 'Here it is [as requested]: {"city": "Paris"}'],
    ['braces in the prose before', 'Sure (see {below}):\n{"city": "Paris"}'],
    ['braces in the prose after', '{"city": "Paris"}\n\nFields you did not ask for are left {out}.'],
    ['backticks in the prose before', 'Wrap it in ``` fences?\nNo: {"city": "Paris"}'],
    ['a fence on its own line, prose around it', 'Sure:\n```json\n{"city": "Paris"}\n```\nThe ``` marks are gone.'],
  ])('%s: the JSON is found', (_case, text) => {
    expect(extract(text)).toEqual({ type: 'json', text: '{"city": "Paris"}', value: { city: 'Paris' } });
  });

  it("a fence inside a string value (a code field) is not taken for the reply's fence", () => {
    const text = 'Here is the snippet:\n{\n  "language": "python",\n  "code": "```python\\nprint(1)\\n```"\n}';
    expect(extract(text)).toMatchObject({ type: 'json', value: { language: 'python', code: '```python\nprint(1)\n```' } });
  });

  it('an aside that is JSON too loses to the bigger value; brackets inside strings do not end a span', () => {
    const text = 'The list [1, 2] goes in: {"a": [1, 2], "b": "x\\"]}"}';
    expect(extract(text)).toMatchObject({ type: 'json', value: { a: [1, 2], b: 'x"]}' } });
  });

  it('near-JSON after prose is still repaired once, and prose alone is no JSON', () => {
    expect(extract('I\'ll answer: {"a": 1,}')).toMatchObject({ type: 'json', value: { a: 1 } });
    expect(extract('Here: {"a": {"b": 1}')).toMatchObject({ type: 'json', value: { a: { b: 1 } } });
    expect(extract('No JSON {here}, sorry.')).toEqual({ type: 'invalid' });
  });
});
