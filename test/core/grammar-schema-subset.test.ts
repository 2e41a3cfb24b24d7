/** The narrowing of a JSON Schema to what Claude's and Bedrock's grammar compilers take, and the schemas it cannot keep faithful. */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { grammarFormatSchema, grammarSubsetGap, narrowToGrammarSubset } from '../../src/core/grammar-schema-subset.js';
import { grammarSchemaRefusal } from '../helpers/grammar-schema-refusal.js';

/** What Pydantic writes for a model with bounded fields, an optional union and a nested model in $defs. */
const pydanticPerson = {
  title: 'Person',
  type: 'object',
  properties: {
    name: { title: 'Name', type: 'string', minLength: 1, maxLength: 40 },
    age: { title: 'Age', type: 'integer', minimum: 0, maximum: 150, description: 'Years.' },
    email: { title: 'Email', type: 'string', format: 'email' },
    homepage: { title: 'Homepage', type: 'string', format: 'uri-reference' },
    nickname: { anyOf: [{ type: 'string', pattern: '^[a-z]+$' }, { type: 'null' }], default: null },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 5, uniqueItems: true },
    address: { $ref: '#/$defs/Address' },
    // A property whose name is a keyword stays a property.
    minimum: { type: 'number', exclusiveMinimum: 0 },
  },
  required: ['name', 'age', 'address', 'minimum'],
  $defs: {
    Address: { title: 'Address', type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: true },
  },
};

describe('narrowToGrammarSubset', () => {
  it('leaves a schema the grammar compilers refuse as one they take', () => {
    expect(grammarSchemaRefusal(pydanticPerson, 'schema')).toBe(
      "schema: For 'object' type, 'additionalProperties' must be explicitly set to false",
    );
    const { schema } = narrowToGrammarSubset(pydanticPerson);
    expect(grammarSchemaRefusal(schema, 'schema')).toBeUndefined();
  });

  it('closes every object, keeps what the subset holds and writes the rest into descriptions, as Anthropic SDKs do', () => {
    const { schema, relaxed } = narrowToGrammarSubset(pydanticPerson);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(schema.additionalProperties).toBe(false);
    expect(properties.name).toEqual({ title: 'Name', type: 'string', description: '{minLength: 1, maxLength: 40}' });
    expect(properties.age).toEqual({ title: 'Age', type: 'integer', description: 'Years.\n\n{minimum: 0, maximum: 150}' });
    expect(properties.email).toEqual({ title: 'Email', type: 'string', format: 'email' });
    expect(properties.homepage).toEqual({ title: 'Homepage', type: 'string', description: '{format: "uri-reference"}' });
    expect(properties.nickname).toEqual({
      anyOf: [{ type: 'string', description: '{pattern: "^[a-z]+$"}' }, { type: 'null' }],
      description: '{default: null}',
    });
    expect(properties.tags).toEqual({
      type: 'array',
      items: { type: 'string' },
      description: '{minItems: 2, maxItems: 5, uniqueItems: true}',
    });
    expect(properties.address).toEqual({ $ref: '#/$defs/Address' });
    expect(properties.minimum).toEqual({ type: 'number', description: '{exclusiveMinimum: 0}' });
    expect((schema.$defs as Record<string, unknown>).Address).toEqual({
      title: 'Address',
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(relaxed.sort()).toEqual([
      'default',
      'exclusiveMinimum',
      'format',
      'maxItems',
      'maxLength',
      'maximum',
      'minItems',
      'minLength',
      'minimum',
      'pattern',
      'uniqueItems',
    ]);
  });

  it("leaves out what is about the document (zod's $schema): not a bound, so neither described nor warned", () => {
    const zodPlace = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $comment: 'generated',
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
      additionalProperties: false,
    };
    const { $schema: _dialect, $comment: _comment, ...sent } = zodPlace;
    expect(narrowToGrammarSubset(zodPlace)).toEqual({ schema: sent, relaxed: [] });
    expect(grammarFormatSchema({ name: 'place', schema: zodPlace, strict: true }, 'x').warnings).toEqual([]);
  });

  it('turns oneOf into anyOf and keeps minItems 0 and 1', () => {
    const { schema } = narrowToGrammarSubset({ type: 'array', minItems: 1, items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } });
    expect(schema).toEqual({ type: 'array', minItems: 1, items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } });
  });

  it('narrows a copy: the client schema the gateway checks the reply against keeps every bound', () => {
    const original = structuredClone(pydanticPerson);
    narrowToGrammarSubset(original);
    expect(original).toEqual(pydanticPerson);
    const check = new Ajv({ strict: false, validateFormats: false }).compile(original);
    expect(check({ name: 'Ada', age: -1, address: { city: 'Paris' }, minimum: 1 })).toBe(false);
  });
});

describe('grammarFormatSchema', () => {
  it('warns a strict format that bounds left the schema, and only then', () => {
    const strict = grammarFormatSchema({ name: 'person', schema: pydanticPerson, strict: true }, "Anthropic provider 'claude'");
    expect(strict.warnings).toEqual([
      { code: 'strict-schema-not-guaranteed', message: expect.stringContaining('cannot enforce minLength, maxLength') },
    ]);
    expect(grammarFormatSchema({ name: 'person', schema: pydanticPerson }, 'x').warnings).toEqual([]);
    const plain = { type: 'object', properties: { city: { type: 'string' } } };
    expect(grammarFormatSchema({ name: 'place', schema: plain, strict: true }, 'x').warnings).toEqual([]);
  });
});

describe('grammarSubsetGap', () => {
  it('finds nothing in a schema it can narrow faithfully', () => {
    expect(grammarSubsetGap(pydanticPerson)).toBeUndefined();
  });

  it.each([
    ['a free-form object', { type: 'object', properties: { meta: { type: 'object' } } }, 'free-form object'],
    ['a map', { type: 'object', additionalProperties: { type: 'string' } }, 'free-form object'],
    ['a value of any type', { type: 'object', properties: { value: {} } }, 'no type'],
    [
      'a recursive definition',
      {
        $ref: '#/$defs/Node',
        $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
      },
      'recursive',
    ],
    ['a reference to the root', { type: 'object', properties: { next: { $ref: '#' } } }, 'recursive'],
    ['an external reference', { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, 'external schema'],
    ['a reference to nothing', { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } }, 'names nothing'],
  ])('says why %s cannot be compiled faithfully', (_name, schema, reason) => {
    expect(grammarSubsetGap(schema)).toContain(reason);
  });

  it('walks a definition named many times once, so a deep chain of shared references stays quick', () => {
    const $defs: Record<string, unknown> = { D0: { type: 'string' } };
    for (let level = 1; level <= 40; level += 1) {
      const previous = { $ref: `#/$defs/D${level - 1}` };
      $defs[`D${level}`] = { type: 'object', properties: { a: previous, b: previous }, additionalProperties: false };
    }
    const started = performance.now();
    expect(grammarSubsetGap({ $ref: '#/$defs/D40', $defs })).toBeUndefined();
    // 2^40 paths if each were walked; a bound of seconds only catches that, never a slow machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
