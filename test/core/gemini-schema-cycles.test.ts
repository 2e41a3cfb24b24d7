/** Which recursive schemas Gemini's responseJsonSchema can unroll: cycles within non-required properties only. */
import { expect, it } from 'vitest';
import { geminiSchemaCycleGap } from '../../src/core/gemini-schema-cycles.js';

const list = (next: Record<string, unknown>, required: string[]) => ({
  definitions: { list: { type: 'object', properties: { value: { type: 'integer' }, next }, required } },
  $ref: '#/definitions/list',
});

it('takes a cycle through an optional property, and none at all', () => {
  expect(geminiSchemaCycleGap(list({ $ref: '#/definitions/list' }, ['value']))).toBeUndefined();
  expect(geminiSchemaCycleGap({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toBeUndefined();
});

it('refuses a cycle through required properties only, a nullable union included ("nullable properties are not sufficient")', () => {
  expect(geminiSchemaCycleGap(list({ $ref: '#/definitions/list' }, ['value', 'next']))).toContain('#/definitions/list');
  expect(geminiSchemaCycleGap(list({ anyOf: [{ $ref: '#/definitions/list' }, { type: 'null' }] }, ['value', 'next']))).toContain(
    '#/definitions/list',
  );
});
