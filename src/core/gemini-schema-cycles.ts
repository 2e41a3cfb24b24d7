/**
 * Which recursive schemas Gemini's `responseJsonSchema` takes. Its reference (GenerationConfig.responseJsonSchema,
 * https://ai.google.dev/api/generate-content#generationconfig, and Vertex AI's v1 GenerationConfig alike): "Cyclic
 * references are unrolled to a limited degree and, as such, may only be used within non-required properties.
 * (Nullable properties are not sufficient.)" A `$ref` that comes back to itself through required properties only
 * (a required `child`, a required array of children) has no finite unrolling, so it cannot be sent: the gateway
 * writes the schema into the prompt instead and checks the reply itself. One that recurs through an optional
 * property is sent as it is.
 */
type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolve(root: Schema, ref: string): unknown {
  let target: unknown = root;
  for (const part of ref.slice(2).split('/').filter(Boolean)) {
    if (!isSchema(target)) return undefined;
    target = target[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return target;
}

/**
 * `open`: the local `$ref`s being expanded on the way here, each with whether an optional property was passed
 * since; the first `$ref` met again with none passed is returned.
 */
function requiredCycle(schema: unknown, root: Schema, open: ReadonlyMap<string, boolean>): string | undefined {
  if (!isSchema(schema)) return undefined;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#')) {
    const ref = schema.$ref;
    if (open.has(ref)) return open.get(ref) ? undefined : ref;
    return requiredCycle(resolve(root, ref), root, new Map([...open, [ref, false]]));
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const children: [unknown, boolean][] = [];
  if (isSchema(schema.properties))
    for (const [name, property] of Object.entries(schema.properties)) children.push([property, !required.has(name)]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(schema[key])) for (const branch of schema[key] as unknown[]) children.push([branch, false]);
  for (const key of ['items', 'additionalProperties']) children.push([schema[key], false]);
  for (const [child, optional] of children) {
    const next = optional ? new Map([...open].map(([ref]) => [ref, true] as const)) : open;
    const found = requiredCycle(child, root, next);
    if (found) return found;
  }
  return undefined;
}

/** Why `responseJsonSchema` cannot take this schema, or undefined when it can. */
export function geminiSchemaCycleGap(schema: Schema): string | undefined {
  const ref = requiredCycle(schema, schema, new Map());
  return (
    ref &&
    `the recursive $ref ${ref} comes back through required properties only, and Gemini unrolls cycles only within non-required properties`
  );
}
