/** Converts raw parameter text of XML-ish families to JSON values with the tool's JSON Schema. */
// For Qwen3-Coder <parameter=…>, GLM <arg_value>, MiniMax, … A `string` stays a string even when it
// looks like a number; without a usable schema the value is guessed (JSON if it parses, else text).
import { isPlainObject } from './call-arguments.js';
import { defineKey, parseLenientJson } from './lenient-json.js';

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

const jsonTypes = new Set<string>(['string', 'integer', 'number', 'boolean', 'null', 'object', 'array']);
const integerPattern = /^[+-]?\d+$/;
const numberPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function coerceBySchema(raw: string, schema: unknown): unknown {
  if (!isPlainObject(schema)) return guessValue(raw);
  // Nearly every property declares one plain type: decoded without building the type list.
  const declared = schema['type'];
  if (typeof declared === 'string' && jsonTypes.has(declared) && schema['anyOf'] === undefined && schema['oneOf'] === undefined) {
    const value = coerceToType(raw, declared as JsonType);
    return value === noMatch ? raw : value;
  }
  const types = schemaTypes(schema);
  if (types.length === 0) return coerceByEnum(raw, schema) ?? guessValue(raw);
  // A string is lossless: when the schema allows one, only an explicit null literal beats it.
  if (types.includes('string')) return types.includes('null') && isNullLiteral(raw) ? null : raw;
  for (const type of types) {
    const value = coerceToType(raw, type);
    if (value !== noMatch) return value;
  }
  return raw;
}

/** Coerces every raw argument with its property schema from the tool's `parameters`. */
export function coerceArgumentsBySchema(raw: Record<string, string>, parameters: Record<string, unknown>): Record<string, unknown> {
  const properties = isPlainObject(parameters['properties']) ? parameters['properties'] : {};
  const result: Record<string, unknown> = {};
  // `for…in` rather than `Object.entries`: no array of pairs per call (`raw` is a plain record built by a grammar).
  for (const key in raw) {
    if (!Object.hasOwn(raw, key)) continue;
    defineKey(result, key, coerceBySchema(raw[key] as string, Object.hasOwn(properties, key) ? properties[key] : undefined));
  }
  return result;
}

const noMatch = Symbol('no match');

function coerceToType(raw: string, type: JsonType): unknown {
  const text = raw.trim();
  switch (type) {
    case 'string':
      return raw;
    case 'integer':
      return integerPattern.test(text) ? Number(text) : noMatch;
    case 'number':
      return numberPattern.test(text) ? Number(text) : noMatch;
    case 'boolean': {
      const lower = text.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : noMatch;
    }
    case 'null':
      return isNullLiteral(text) ? null : noMatch;
    case 'object':
    case 'array': {
      const parsed = parseLenientJson(text);
      if (parsed.type === 'error') return noMatch;
      const matches = type === 'array' ? Array.isArray(parsed.value) : isPlainObject(parsed.value);
      return matches ? parsed.value : noMatch;
    }
  }
}

/** The declared types, from `type` (string or list) or the branches of `anyOf`/`oneOf`. */
function schemaTypes(schema: unknown): JsonType[] {
  if (!isPlainObject(schema)) return [];
  const declared = schema['type'];
  const names = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared : [];
  const types = names.filter((name): name is JsonType => typeof name === 'string' && jsonTypes.has(name));
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches) types.push(...schemaTypes(branch));
  }
  return [...new Set(types)];
}

function coerceByEnum(raw: string, schema: unknown): unknown {
  if (!isPlainObject(schema) || !Array.isArray(schema['enum'])) return undefined;
  const options: unknown[] = schema['enum'];
  if (options.includes(raw)) return raw;
  return options.find((option) => typeof option !== 'string' && JSON.stringify(option) === raw.trim());
}

function isNullLiteral(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === 'null' || trimmed === 'None';
}

function guessValue(raw: string): unknown {
  const text = raw.trim();
  if (text === '') return raw;
  try {
    return JSON.parse(text);
  } catch {
    if (text.startsWith('{') || text.startsWith('[')) {
      const parsed = parseLenientJson(text);
      if (parsed.type === 'value') return parsed.value;
    }
    return raw;
  }
}
