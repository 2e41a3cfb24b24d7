/**
 * What Anthropic's structured outputs and Bedrock's Converse answer for a schema outside the subset their
 * grammar compiler takes, in the words users quote (the first error found, as the real APIs name one):
 * - "output_format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false"
 *   (ax-llm/ax#458, Claude Sonnet 4.5; future-agi/future-agi#412 quotes Bedrock's Converse with the same text);
 * - "For 'object' type, 'additionalProperties: true' is not supported. Please set 'additionalProperties' to false"
 *   (BerriAI/litellm#35808);
 * - "For 'integer' type, property 'minimum' is not supported" (agentjido/req_llm#302).
 * The keyword lists follow Anthropic's "JSON Schema limitations" (structured-outputs docs): no numeric
 * bounds, no string length or pattern bounds, no array bounds past `minItems` 0 or 1.
 */
type Schema = Record<string, unknown>;

const unsupportedByType: Record<string, readonly string[]> = {
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern'],
  array: ['maxItems', 'uniqueItems'],
};

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function ownRefusal(schema: Schema): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    if (schema.additionalProperties === true)
      return "For 'object' type, 'additionalProperties: true' is not supported. Please set 'additionalProperties' to false";
    if (schema.additionalProperties !== false) return "For 'object' type, 'additionalProperties' must be explicitly set to false";
  }
  for (const type of types) {
    const keyword = (unsupportedByType[String(type)] ?? []).find((name) => name in schema);
    if (keyword) return `For '${String(type)}' type, property '${keyword}' is not supported`;
  }
  if (typeof schema.minItems === 'number' && schema.minItems > 1)
    return "For 'array' type, 'minItems' values other than 0 or 1 are not supported";
  return undefined;
}

function children(schema: Schema): unknown[] {
  const found: unknown[] = [];
  for (const key of ['properties', '$defs', 'definitions']) if (isSchema(schema[key])) found.push(...Object.values(schema[key] as Schema));
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[key])) found.push(...(schema[key] as unknown[]));
  if (isSchema(schema.items)) found.push(schema.items);
  return found;
}

/** The refusal for the first schema (depth first) outside the subset, prefixed with the field it came in; undefined if none. */
export function grammarSchemaRefusal(schema: unknown, field: string): string | undefined {
  if (!isSchema(schema)) return undefined;
  const own = ownRefusal(schema);
  if (own) return `${field}: ${own}`;
  for (const child of children(schema)) {
    const found = grammarSchemaRefusal(child, field);
    if (found) return found;
  }
  return undefined;
}
