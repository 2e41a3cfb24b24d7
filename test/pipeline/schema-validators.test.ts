/** The response-format schema check: each schema judged in the draft it names, and no schema left unchecked by an earlier one. */
import { describe, expect, it } from 'vitest';
import { createSchemaCheck } from '../../src/pipeline/schema-validators.js';

describe('createSchemaCheck', () => {
  it('a draft 2020-12 schema (as Zod 4 writes one, `$schema` included) is checked, with 2020-12 meanings', () => {
    const check = createSchemaCheck(8);
    const person = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { age: { type: 'integer' } },
      required: ['age'],
      additionalProperties: false,
    };
    expect(check(person, { age: 3 })).toEqual([]);
    expect(check(person, { name: 'x' }).map((error) => error.keyword)).toEqual(
      expect.arrayContaining(['required', 'additionalProperties']),
    );
    // In 2020-12 `items` is what follows `prefixItems`; read as draft-07 it would apply to every item.
    const pair = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer' }],
      items: { type: 'boolean' },
    };
    expect(check(pair, ['a', 1, true])).toEqual([]);
    expect(check(pair, ['a', 'b'])).toHaveLength(1);
  });

  it('draft-07 and 2019-09 schemas that name themselves are checked too', () => {
    const check = createSchemaCheck(8);
    for (const dialect of ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2019-09/schema'])
      expect(check({ $schema: dialect, type: 'object', required: ['a'] }, {})).toHaveLength(1);
  });

  it('a schema whose `$id` an earlier schema used is still checked (a changed schema, or one compiled again after eviction)', () => {
    const check = createSchemaCheck(1);
    const first = { $id: 'https://example.com/person', type: 'object', required: ['age'] };
    expect(check(first, {})).toHaveLength(1);
    expect(check({ ...first, required: ['name'] }, {})).toHaveLength(1);
    // Capacity 1: `first` was evicted, so it compiles again under its own `$id`.
    expect(check(first, {})).toHaveLength(1);
  });

  it('a recursive schema keeps working after ajv forgets it', () => {
    const check = createSchemaCheck(8);
    const tree = {
      type: 'object',
      properties: { n: { type: 'integer' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['n'],
    };
    expect(check(tree, { n: 1, children: [{ n: 2 }] })).toEqual([]);
    expect(check(tree, { n: 1, children: [{}] })[0]?.instancePath).toBe('/children/0');
  });
});

describe('patterns', () => {
  const schema = (pattern: string) => ({ type: 'object', properties: { code: { type: 'string', pattern } }, required: ['code'] });

  it('a pattern that may backtrack exponentially is not run, the other keywords still checked', () => {
    const check = createSchemaCheck();
    // Run against forty a's and a mismatch, ^(a+)+$ would hold the gateway's one thread for minutes; not run, a
    // value it would refuse at once passes that keyword.
    expect(check(schema('^(a+)+$'), { code: 'b' })).toEqual([]);
    expect(check(schema('(x+x+)+y'), { code: 'b' })).toEqual([]);
    expect(check(schema('^(a+)+$'), { code: 7 })).toMatchObject([{ keyword: 'type', instancePath: '/code' }]);
  });

  it('a safe pattern is checked as before', () => {
    const check = createSchemaCheck();
    expect(check(schema('^[a-z]+$'), { code: 'abc' })).toEqual([]);
    expect(check(schema('^[a-z]+$'), { code: 'ABC' })).toMatchObject([{ keyword: 'pattern', instancePath: '/code' }]);
    expect(check(schema('^\\p{L}+$'), { code: 'été' })).toEqual([]);
  });
});
