/** The JSON a model meant as its whole reply: code fences and prose around it stripped, near-JSON repaired once. */
import type { JsonRepair } from './repair-native-arguments.js';

export type ExtractedJson = { type: 'json'; text: string; value: unknown } | { type: 'invalid' };

function parsed(text: string): ExtractedJson | undefined {
  try {
    return { type: 'json', text, value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The body of the first ``` fence (```json or bare), or undefined when the text has none. */
function fencedBody(text: string): string | undefined {
  const open = text.indexOf('```');
  if (open < 0) return undefined;
  const lineEnd = text.indexOf('\n', open);
  if (lineEnd < 0) return undefined;
  const close = text.indexOf('```', lineEnd);
  // A missing closer (the model stopped after the JSON) still leaves the body.
  return text.slice(lineEnd + 1, close < 0 ? undefined : close).trim();
}

/** From the first `{` or `[` to the last matching closer: prose before and after the JSON dropped. */
function bracketed(text: string): string | undefined {
  const object = text.indexOf('{');
  const array = text.indexOf('[');
  const start = object < 0 ? array : array < 0 ? object : Math.min(object, array);
  if (start < 0) return undefined;
  const end = text.lastIndexOf(text[start] === '{' ? '}' : ']');
  return end > start ? text.slice(start, end + 1) : text.slice(start);
}

/**
 * Tries, in order: the text as is, the fence's body, the bracketed span; then one repair (trailing
 * commas, single quotes, missing closers) of the best candidate. Bounded: at most four parses.
 */
export function extractJsonReply(text: string, repair: JsonRepair | undefined): ExtractedJson {
  const trimmed = text.trim();
  const whole = parsed(trimmed);
  if (whole) return whole;
  const candidate = fencedBody(trimmed) ?? bracketed(trimmed) ?? trimmed;
  const direct = candidate !== trimmed ? parsed(candidate) : undefined;
  if (direct) return direct;
  const repaired = repair?.(candidate);
  return (repaired !== undefined && parsed(repaired)) || { type: 'invalid' };
}
