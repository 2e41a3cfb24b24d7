/** Gemma 4's value syntax: strings between `<|"|>` tokens, bare or delimited keys, the rest as JSON. */
// The template's `format_argument` macro: strings raw between the delimiter token, booleans and numbers
// as written, bare keys in calls and results, delimited keys in declarations. The template sorts keys
// (`dictsort`, Python dicts having no other order to rely on); here the call's own order is kept, so a
// call reads back exactly as it was written.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/gemma4.jinja
import { isPlainObject } from '../shared/call-arguments.js';

export const gemma4StringDelimiter = '<|"|>';

export function gemma4String(text: string): string {
  return gemma4StringDelimiter + text + gemma4StringDelimiter;
}

export function formatGemma4Value(value: unknown, delimitKeys: boolean): string {
  if (typeof value === 'string') return gemma4String(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatGemma4Value(item, delimitKeys)).join(',')}]`;
  if (isPlainObject(value)) return `{${formatGemma4Members(value, delimitKeys)}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `key:value` pairs, comma-separated, without the braces (a call's arguments). */
export function formatGemma4Members(object: Record<string, unknown>, delimitKeys: boolean): string {
  return Object.keys(object)
    .map((key) => `${delimitKeys ? gemma4String(key) : key}:${formatGemma4Value(object[key], delimitKeys)}`)
    .join(',');
}
