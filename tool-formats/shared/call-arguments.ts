/** Turns whatever a model gave as a call's arguments (object, JSON text, nothing) into one object. */
import { parseLenientJson } from './lenient-json.js';

export type CallArguments = { type: 'object'; value: Record<string, unknown> } | { type: 'error'; message: string };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function normalizeCallArguments(value: unknown): CallArguments {
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
