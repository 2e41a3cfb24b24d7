/** The stand-in for the servers' grammars gives values valid against the schema, recursive ones included. */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { schemaInstance } from './schema-instance.js';

const schemas: Record<string, Record<string, unknown>> = {
  'bounds and formats': {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 3, maximum: 9 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      name: { type: 'string', minLength: 8, maxLength: 10 },
      when: { type: 'string', format: 'date-time' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 3 },
    },
    required: ['count', 'ratio', 'name', 'when', 'tags'],
    additionalProperties: false,
  },
  'unions, consts and nullable types': {
    type: 'object',
    properties: {
      kind: { const: 'point' },
      value: { oneOf: [{ type: 'number' }, { type: 'string' }] },
      label: { type: ['string', 'null'] },
      pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }] },
    },
    required: ['kind', 'value', 'label', 'pair'],
  },
  'a recursive tree through $defs': {
    $defs: {
      node: {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        required: ['name', 'children'],
        additionalProperties: false,
      },
    },
    $ref: '#/$defs/node',
  },
  'a recursive list ending in null': {
    definitions: {
      list: { anyOf: [{ type: 'object', properties: { next: { $ref: '#/definitions/list' } }, required: ['next'] }, { type: 'null' }] },
    },
    $ref: '#/definitions/list',
  },
};

describe('schemaInstance', () => {
  it.each(Object.entries(schemas))('%s', (_label, schema) => {
    const value = schemaInstance(schema);
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });
});
