/**
 * Gemini's JSON Schema fields (`responseJsonSchema`, a function's `parametersJsonSchema`) take nothing beside a
 * `$ref` but keywords starting with `$`: "If $ref is set on a sub-schema, no other properties, except for than
 * those starting as a $, may be set." (GenerationConfig.responseJsonSchema,
 * https://ai.google.dev/api/generate-content#generationconfig, and Vertex AI's v1 GenerationConfig alike). The API
 * refuses such a schema, 400 INVALID_ARGUMENT "schema at properties.draft can only contain properties starting with
 * '$' when $ref is present" (google-gemini/gemini-cli#4758). A field's `description` beside the reference to its
 * type is what Pydantic and Zod write, and a root's `definitions` beside its `$ref` what many clients send.
 *
 * So the reference moves one level down, into a one-branch `anyOf` (which Gemini takes; it lists no `allOf`): the
 * node then means what it meant (a value valid against the reference and the other keywords), keeps its
 * description, and holds only the `$ref` in the branch. A `$ref` beside an `anyOf` or `oneOf` of its own cannot
 * move so without changing the union: that schema has a gap instead, for the format to go into the prompt.
 */
type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords whose value is one schema, a list of schemas, or a map of names to schemas (the rest is data). */
const schemaKeywords: ReadonlySet<string> = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
]);
const schemaListKeywords: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const schemaMapKeywords: ReadonlySet<string> = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);

/** A `$ref` with keywords beside it that do not start with `$`. */
function hasRefSiblings(node: Schema): boolean {
  return typeof node.$ref === 'string' && Object.keys(node).some((key) => !key.startsWith('$'));
}

/** Whether some node of the schema passes `test` (found without copying anything). */
function someNode(schema: unknown, test: (node: Schema) => boolean): boolean {
  if (!isSchema(schema)) return false;
  if (test(schema)) return true;
  for (const [key, value] of Object.entries(schema)) {
    if (schemaKeywords.has(key) && someNode(value, test)) return true;
    if (schemaListKeywords.has(key) && Array.isArray(value) && value.some((child) => someNode(child, test))) return true;
    if (schemaMapKeywords.has(key) && isSchema(value) && Object.values(value).some((child) => someNode(child, test))) return true;
  }
  return false;
}

function refBesideUnion(node: Schema): boolean {
  return typeof node.$ref === 'string' && ('anyOf' in node || 'oneOf' in node);
}

function rewrite(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const rewritten: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (schemaKeywords.has(key)) rewritten[key] = rewrite(value);
    else if (schemaListKeywords.has(key) && Array.isArray(value)) rewritten[key] = value.map(rewrite);
    else if (schemaMapKeywords.has(key) && isSchema(value))
      rewritten[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, rewrite(child)]));
    else rewritten[key] = value;
  }
  if (!hasRefSiblings(rewritten) || refBesideUnion(rewritten)) return rewritten;
  const { $ref, ...rest } = rewritten;
  return { ...rest, anyOf: [{ $ref }] };
}

/** The schema as Gemini takes it: each `$ref` with other keywords beside it moved into a one-branch `anyOf`; the same object when none has any. */
export function withGeminiRefSiblingsMoved<Value>(schema: Value): Value {
  return someNode(schema, hasRefSiblings) ? (rewrite(schema) as Value) : schema;
}

/** Why Gemini cannot be sent this schema even with its references moved, or undefined when it can. */
export function geminiRefSiblingsGap(schema: Schema): string | undefined {
  return someNode(schema, refBesideUnion)
    ? 'a $ref stands beside an anyOf or oneOf, and Gemini takes no keyword beside a $ref and has no allOf to join them'
    : undefined;
}
