/** The demo model's arguments from a tool's JSON Schema: required fields, enums, defaults, nesting. */
import { describe, expect, it } from 'vitest';
import { exampleArguments } from '../../../providers/scripted/example-arguments.js';

describe('exampleArguments', () => {
  it('fills the required properties, with values that fit their schema', () => {
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string' },
        count: { type: 'integer', minimum: 3 },
        mode: { enum: ['fast', 'slow'] },
        recursive: { type: 'boolean', default: false },
        optional: { type: 'string' },
      },
      required: ['path', 'count', 'mode', 'recursive'],
    };
    expect(exampleArguments(schema)).toEqual({ path: 'README.md', count: 3, mode: 'fast', recursive: false });
  });

  it('fills every property when none is required, nested objects and arrays included', () => {
    const schema = {
      type: 'object',
      properties: {
        filter: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
        limit: { type: ['number', 'null'] },
      },
    };
    expect(exampleArguments(schema)).toEqual({ filter: { tags: ['example tags'] }, limit: 1 });
  });

  it('gives an empty object for a tool without parameters, and stops at deep recursion', () => {
    expect(exampleArguments({ type: 'object', properties: {} })).toEqual({});
    const deep: Record<string, unknown> = { type: 'object', properties: {} };
    let cursor = deep;
    for (let level = 0; level < 20; level++) {
      const next = { type: 'object', properties: {} as Record<string, unknown>, required: ['inner'] };
      (cursor.properties as Record<string, unknown>).inner = next;
      cursor = next;
    }
    expect(JSON.stringify(exampleArguments(deep)).length).toBeLessThan(200);
  });
});
