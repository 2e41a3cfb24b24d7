/** Gemini's rule on `$ref` (only `$` keywords beside it): references with other keywords moved into a one-branch anyOf. */
import { expect, it } from 'vitest';
import { geminiRefSiblingsGap, withGeminiRefSiblingsMoved } from '../../src/core/gemini-ref-siblings.js';

it('moves a $ref with keywords beside it into an anyOf, wherever it stands, keeping the keywords', () => {
  const schema = {
    definitions: { item: { type: 'string' } },
    $ref: '#/definitions/item',
    title: 'Root',
  };
  expect(withGeminiRefSiblingsMoved(schema)).toEqual({
    definitions: { item: { type: 'string' } },
    title: 'Root',
    anyOf: [{ $ref: '#/definitions/item' }],
  });
  const nested = {
    type: 'object',
    properties: {
      list: { type: 'array', items: { $ref: '#/$defs/item', default: 'x' } },
      choice: { anyOf: [{ $ref: '#/$defs/item', description: 'one' }, { type: 'null' }] },
    },
    $defs: { item: { type: 'string' }, wrapped: { $ref: '#/$defs/item', description: 'in $defs' } },
  };
  expect(withGeminiRefSiblingsMoved(nested)).toEqual({
    type: 'object',
    properties: {
      list: { type: 'array', items: { default: 'x', anyOf: [{ $ref: '#/$defs/item' }] } },
      choice: { anyOf: [{ description: 'one', anyOf: [{ $ref: '#/$defs/item' }] }, { type: 'null' }] },
    },
    $defs: { item: { type: 'string' }, wrapped: { description: 'in $defs', anyOf: [{ $ref: '#/$defs/item' }] } },
  });
});

it('returns the same schema when every $ref stands alone or beside $ keywords only, and leaves data alone', () => {
  const schema = {
    $defs: { item: { type: 'string' } },
    $ref: '#/$defs/item',
  };
  expect(withGeminiRefSiblingsMoved(schema)).toBe(schema);
  const data = { type: 'object', properties: { link: { type: 'object', default: { $ref: 'x', note: 'data' } } } };
  expect(withGeminiRefSiblingsMoved(data)).toBe(data);
});

it('says why a $ref beside a union of its own cannot be sent, and finds nothing to say otherwise', () => {
  expect(geminiRefSiblingsGap({ properties: { a: { $ref: '#/$defs/a', oneOf: [{ type: 'string' }] } } })).toContain('anyOf or oneOf');
  expect(geminiRefSiblingsGap({ properties: { a: { $ref: '#/$defs/a', description: 'd' } } })).toBeUndefined();
});
