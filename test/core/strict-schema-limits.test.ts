/** Claude's per-request limits on strict schemas, counted as its docs count them (structured outputs, "Schema complexity limits"). */
import { describe, expect, it } from 'vitest';
import { StrictSchemaBudget, strictSchemaCounts } from '../../src/core/strict-schema-limits.js';

describe('strict schema counts', () => {
  it('counts every property left out of its required list, nested objects, array items and definitions included', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'string' },
        note: { type: 'string' },
        address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, required: ['street'] },
        tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
        owner: { $ref: '#/$defs/person' },
      },
      required: ['id', 'address', 'tags', 'owner'],
      $defs: { person: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['name'] } },
    };
    // note, address.zip, tags[].label, person.email
    expect(strictSchemaCounts(schema)).toEqual({ optionalParameters: 4, unionParameters: 0 });
  });

  it('counts a parameter with anyOf or a type array as one union, and not the schema itself', () => {
    const schema = {
      anyOf: [{ type: 'object', properties: {}, required: [] }],
      properties: {
        maybe: { type: ['string', 'null'] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        single: { type: ['string'] },
      },
      required: ['maybe', 'either', 'single'],
    };
    expect(strictSchemaCounts(schema).unionParameters).toBe(2);
  });
});

describe('a request budget', () => {
  it('admits schemas while the request stays within every limit, and counts nothing for one it refuses', () => {
    const budget = new StrictSchemaBudget({ strictTools: 2, optionalParameters: 3, unionParameters: 16 });
    const optional = (count: number) => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' }])),
    });
    expect(budget.admit(optional(2), 'format')).toBeUndefined();
    expect(budget.admit(optional(2), 'tool')).toBe("with it the request's strict schemas would hold 4 optional parameters (at most 3)");
    expect(budget.admit(optional(1), 'tool')).toBeUndefined();
    expect(budget.admit(optional(0), 'tool')).toBeUndefined();
    expect(budget.admit(optional(0), 'tool')).toBe("with it the request's strict schemas would hold 3 strict tools (at most 2)");
  });
});
