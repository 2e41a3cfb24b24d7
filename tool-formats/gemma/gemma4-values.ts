/** Gemma 4's value syntax: strings between `<|"|>` tokens, bare or delimited keys, the rest as JSON. */
// The template's `format_argument` macro: strings raw between the delimiter token, booleans and numbers
// as written, bare keys in calls and results, delimited keys in declarations. The template sorts keys
// (`dictsort`); results and declarations are sorted too, but calls keep their own order, so that a call
// reads back exactly as it was written.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/gemma4.jinja
import { isPlainObject } from '../shared/call-arguments.js';

export const gemma4StringDelimiter = '<|"|>';

export function gemma4String(text: string): string {
  return gemma4StringDelimiter + text + gemma4StringDelimiter;
}

export type Gemma4KeyStyle = { delimitKeys: boolean; sortKeys: boolean };

export function formatGemma4Value(value: unknown, style: Gemma4KeyStyle): string {
  if (typeof value === 'string') return gemma4String(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatGemma4Value(item, style)).join(',')}]`;
  if (isPlainObject(value)) return `{${formatGemma4Members(value, style)}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `key:value` pairs, comma-separated, without the braces (a call's arguments, a result's members). */
export function formatGemma4Members(object: Record<string, unknown>, style: Gemma4KeyStyle): string {
  const keys = style.sortKeys ? Object.keys(object).sort() : Object.keys(object);
  return keys.map((key) => `${style.delimitKeys ? gemma4String(key) : key}:${formatGemma4Value(object[key], style)}`).join(',');
}
