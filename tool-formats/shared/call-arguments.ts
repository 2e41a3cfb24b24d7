/** Turns whatever a model gave as a call's arguments (object, JSON text, nothing) into one object. */
import { parseLenientJson } from './lenient-json.js';

export type CallArguments = { type: 'object'; value: Record<string, unknown> } | { type: 'error'; message: string };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function normalizeCallArguments(value: unknown): CallArguments {
  const read = readCallArguments(value);
  // `1e999` reads as Infinity, which JSON.stringify would turn into null: a value the model never wrote.
  // The call is refused instead, as vLLM's olmo3 parser does (its test_non_finite_argument_rejected).
  if (read.type === 'object' && holdsNonFiniteNumber(read.value))
    return { type: 'error', message: 'The arguments hold a number too large for JSON (such as 1e999)' };
  return read;
}

function readCallArguments(value: unknown): CallArguments {
  if (value === undefined || value === null) return { type: 'object', value: {} };
  if (isPlainObject(value)) return { type: 'object', value };
  if (typeof value === 'string') {
    // OpenAI-shaped payloads carry the arguments as JSON text.
    if (value.trim() === '') return { type: 'object', value: {} };
    const parsed = parseLenientJson(value);
    if (parsed.type === 'value' && isPlainObject(parsed.value)) return { type: 'object', value: parsed.value };
    return { type: 'error', message: 'The arguments string is not a JSON object' };
  }
  return { type: 'error', message: `The arguments are ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object` };
}

function holdsNonFiniteNumber(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(holdsNonFiniteNumber);
  if (isPlainObject(value)) return Object.values(value).some(holdsNonFiniteNumber);
  return false;
}
