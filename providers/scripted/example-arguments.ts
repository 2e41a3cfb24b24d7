/** Arguments a demo model fills in for a tool: built from the tool's JSON Schema, deterministic. */

type Schema = Record<string, unknown>;

const maximumDepth = 6;

function firstOf(value: unknown): unknown {
  return Array.isArray(value) && value.length > 0 ? value[0] : undefined;
}

function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  // `["string", "null"]`: the first type that is not null.
  if (Array.isArray(schema.type)) return schema.type.find((type): type is string => typeof type === 'string' && type !== 'null');
  if (schema.properties) return 'object';
  return undefined;
}

/** A string that reads as meant for its field, so the demo's call looks like one a model would make. */
function exampleString(name: string): string {
  if (/city|location|place/i.test(name)) return 'Paris';
  if (/path|file/i.test(name)) return 'README.md';
  if (/command|cmd/i.test(name)) return 'ls';
  if (/url/i.test(name)) return 'https://example.com';
  if (/query|search|question/i.test(name)) return 'Interlingua';
  return `example ${name}`.trim();
}

export function exampleValue(schema: unknown, name = '', depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > maximumDepth) return null;
  const object = schema as Schema;
  if ('const' in object) return object.const;
  if ('default' in object) return object.default;
  const choice = firstOf(object.enum) ?? firstOf(object.examples);
  if (choice !== undefined) return choice;
  const variant = firstOf(object.anyOf) ?? firstOf(object.oneOf);
  if (variant !== undefined) return exampleValue(variant, name, depth + 1);
  switch (typeOf(object)) {
    case 'string':
      return exampleString(name);
    case 'integer':
    case 'number':
      return typeof object.minimum === 'number' ? object.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [exampleValue(object.items, name, depth + 1)];
    case 'object':
      return exampleArguments(object, depth + 1);
    default:
      return exampleString(name);
  }
}

/** The required properties (all of them when none is marked required), each with an example value. */
export function exampleArguments(schema: Schema, depth = 0): Record<string, unknown> {
  const properties = (typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {}) as Record<
    string,
    unknown
  >;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string' && Object.hasOwn(properties, name))
    : [];
  const names = required.length > 0 ? required : Object.keys(properties);
  const result: Record<string, unknown> = {};
  for (const name of names) result[name] = exampleValue(properties[name], name, depth);
  return result;
}
