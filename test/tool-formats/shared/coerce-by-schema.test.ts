import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coerceArgumentsBySchema, coerceBySchema } from '../../../tool-formats/shared/coerce-by-schema.js';

describe('coerceBySchema', () => {
  it('keeps a string a string even when it looks like a number', () => {
    expect(coerceBySchema('5123123', { type: 'string' })).toBe('5123123');
    expect(coerceBySchema('true', { type: 'string' })).toBe('true');
    expect(coerceBySchema(' spaced ', { type: 'string' })).toBe(' spaced ');
  });

  it('converts integers, numbers, booleans and null', () => {
    expect(coerceBySchema('10', { type: 'integer' })).toBe(10);
    expect(coerceBySchema(' -3 ', { type: 'integer' })).toBe(-3);
    expect(coerceBySchema('2.5', { type: 'number' })).toBe(2.5);
    expect(coerceBySchema('1e3', { type: 'number' })).toBe(1000);
    expect(coerceBySchema('True', { type: 'boolean' })).toBe(true);
    expect(coerceBySchema('false', { type: 'boolean' })).toBe(false);
    expect(coerceBySchema('None', { type: 'null' })).toBeNull();
  });

  it('parses objects and arrays with the lenient reader', () => {
    expect(coerceBySchema("{'remind': True, 'minutes': 10,}", { type: 'object' })).toEqual({ remind: true, minutes: 10 });
    expect(coerceBySchema('["a@x.io", "b@x.io"]', { type: 'array' })).toEqual(['a@x.io', 'b@x.io']);
  });

  it('keeps the raw text when it does not fit the type', () => {
    expect(coerceBySchema('ten', { type: 'integer' })).toBe('ten');
    expect(coerceBySchema('2.5', { type: 'integer' })).toBe('2.5');
    expect(coerceBySchema('[1]', { type: 'object' })).toBe('[1]');
  });

  it('handles type lists and anyOf/oneOf', () => {
    expect(coerceBySchema('7', { type: ['integer', 'null'] })).toBe(7);
    expect(coerceBySchema('null', { type: ['integer', 'null'] })).toBeNull();
    expect(coerceBySchema('7', { type: ['string', 'null'] })).toBe('7');
    expect(coerceBySchema('null', { type: ['string', 'null'] })).toBeNull();
    expect(coerceBySchema('4', { anyOf: [{ type: 'integer' }, { type: 'boolean' }] })).toBe(4);
    expect(coerceBySchema('true', { oneOf: [{ type: 'integer' }, { type: 'boolean' }] })).toBe(true);
  });

  it('uses enum values when there is no type', () => {
    expect(coerceBySchema('celsius', { enum: ['celsius', 'fahrenheit'] })).toBe('celsius');
    expect(coerceBySchema('2', { enum: [1, 2] })).toBe(2);
  });

  it('guesses without a schema: JSON when it parses, else text', () => {
    expect(coerceBySchema('42', undefined)).toBe(42);
    expect(coerceBySchema('{"a": 1}', {})).toEqual({ a: 1 });
    expect(coerceBySchema("{'a': True}", {})).toEqual({ a: true });
    expect(coerceBySchema('hello world', {})).toBe('hello world');
    expect(coerceBySchema('', {})).toBe('');
  });
});

describe('coerceArgumentsBySchema', () => {
  it('coerces each argument with its property schema', () => {
    const parameters = { type: 'object', properties: { path: { type: 'string' }, start_line: { type: 'integer' } } };
    expect(coerceArgumentsBySchema({ path: '10', start_line: '10', extra: '[1]' }, parameters)).toEqual({
      path: '10',
      start_line: 10,
      extra: [1],
    });
  });
});

describe('coerceBySchema with one plain type', () => {
  const types = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array'] as const;
  const rawValues = fc.oneof(
    fc.string(),
    fc.constantFrom(' 42 ', '-7', '2.5e3', 'True', 'false', 'None', 'null', '{"a":1}', '[1,2]', "{'a': 1,}", '', '  '),
  );

  // `{type: T}` takes a shortcut past the type list; it must decode exactly as the general path does.
  it('decodes as the same type written as the only branch of anyOf', () => {
    fc.assert(
      fc.property(rawValues, fc.constantFrom(...types), (raw, type) => {
        expect(coerceBySchema(raw, { type })).toEqual(coerceBySchema(raw, { anyOf: [{ type }] }));
      }),
    );
  });

  it('leaves an unknown type name to the enum and the guess', () => {
    expect(coerceBySchema('12', { type: 'decimal' })).toBe(12);
    expect(coerceBySchema('b', { type: 'letter', enum: ['a', 'b'] })).toBe('b');
  });
});
