/**
 * A deterministic JSON value valid against a JSON Schema: what the fake servers answer where the real ones
 * decode under a grammar compiled from the schema (vLLM's structured outputs through xgrammar/guidance,
 * llama.cpp's json-schema-to-grammar, Ollama's `format`, which is llama.cpp's converter too). It stands in
 * for the grammar, not for a model: the value is the simplest one the schema allows (the first `enum` or
 * `anyOf` branch, every declared property, the smallest array and number in bounds), so tests can check
 * it with ajv. Local `$ref`s (`#/$defs/…`, `#/definitions/…`) are followed; a recursive one stops at the
 * first branch that does not recurse (an optional property left out, `null`, an empty array).
 */

type Schema = Record<string, unknown>;

/** How deep a recursive `$ref` is followed before the generator takes the way out. */
const maxDepth = 4;

const stringFormats: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'a@example.com',
  hostname: 'example.com',
  uri: 'https://example.com/',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema a local `$ref` points to (JSON Pointer from the root). */
function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#')) throw new Error(`schema-instance follows local $refs only, not ${ref}`);
  let target: unknown = root;
  for (const part of ref.slice(2).split('/').filter(Boolean))
    target = (target as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (!isSchema(target)) throw new Error(`schema-instance: ${ref} points to no schema`);
  return target;
}

/** Whether a schema reaches a `$ref` at all (a branch without one is the way out of a recursion). */
function mentionsRef(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"$ref"');
}

function firstType(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? 'null' : (schema.type[0] as string | undefined);
  if (isSchema(schema.properties) || schema.required !== undefined) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  return undefined;
}

function numberIn(schema: Schema, integer: boolean): number {
  let value = 0;
  if (typeof schema.minimum === 'number') value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number') value = Math.max(value, schema.exclusiveMinimum + (integer ? 1 : 0.5));
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
    value = schema.exclusiveMaximum - (integer ? 1 : 0.5);
  return integer ? Math.ceil(value) : value;
}

function stringIn(schema: Schema): string {
  if (typeof schema.format === 'string' && stringFormats[schema.format]) return stringFormats[schema.format] as string;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 1;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(minLength, 5);
  return 'x'.repeat(Math.min(Math.max(minLength, 5), maxLength));
}

function generate(schema: Schema, root: Schema, depth: number): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (typeof schema.$ref === 'string') return generate(resolveRef(root, schema.$ref), root, depth + 1);
  const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as
    unknown[] | undefined;
  if (branches) {
    // Deep in a recursion, the first branch that refers to nothing ends it.
    const branch = depth >= maxDepth ? (branches.find((candidate) => !mentionsRef(candidate)) ?? branches[0]) : branches[0];
    return generate({ ...schema, anyOf: undefined, oneOf: undefined, ...(branch as Schema) }, root, depth);
  }
  if (Array.isArray(schema.allOf))
    return generate(Object.assign({}, schema, { allOf: undefined }, ...(schema.allOf as Schema[])) as Schema, root, depth);
  switch (firstType(schema)) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
      return numberIn(schema, true);
    case 'number':
      return numberIn(schema, false);
    case 'string':
      return stringIn(schema);
    case 'array': {
      const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
      const items = isSchema(schema.items) ? schema.items : undefined;
      const wanted = depth >= maxDepth && items && mentionsRef(items) ? 0 : 1;
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, prefix.length, items ? wanted : 0);
      return Array.from({ length: count }, (_, index) => generate(prefix[index] ?? items ?? {}, root, depth));
    }
    case 'object': {
      const properties = isSchema(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        // An optional property that recurses is left out once deep enough: that is how a tree ends.
        if (!required.has(name) && depth >= maxDepth && mentionsRef(property)) continue;
        value[name] = generate(property, root, depth);
      }
      for (const name of required) if (!(name in value)) value[name] = 'x';
      return value;
    }
    default:
      // No type at all: any JSON value; the grammars start such a value with an object.
      return {};
  }
}

/** A value valid against `schema` (a whole JSON Schema document: its `$defs` are where `$ref`s point). */
export function schemaInstance(schema: Schema): unknown {
  return generate(schema, schema, 0);
}
