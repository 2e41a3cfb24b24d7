/** JSON with Python's json.dumps spacing (", " and ": "), as chat templates print tools and calls. */
// So prompts look like what the models saw in training. Deterministic: key order is kept.
import { isPlainObject } from './call-arguments.js';
import { nestsTooDeep } from './lenient-json.js';
export function formatJson(value: unknown): string {
  // Native JSON.stringify, then one string-aware pass adding the spaces: half the cost of building the
  // text recursively (measured on 200 tool schemas), which showed in profiles of requests with many tools.
  const compact = JSON.stringify(value) ?? 'null';
  let result = '';
  let copiedUpTo = 0;
  let inString = false;
  for (let index = 0; index < compact.length; index++) {
    const code = compact.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x2c || code === 0x3a) {
      result += compact.slice(copiedUpTo, index + 1) + ' ';
      copiedUpTo = index + 1;
    }
  }
  return copiedUpTo === 0 ? compact : result + compact.slice(copiedUpTo);
}

/**
 * Parses call arguments (JSON text) for rendering; text that is not JSON is kept as a string, and so is
 * JSON nested too deep to re-format (a native upstream's arguments are not bounded on the way in).
 */
export function argumentsForRendering(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  return nestsTooDeep(value) ? text : value;
}

/**
 * Call arguments (JSON text) as the members a family writes one by one (Python keywords, XML parameters,
 * Gemma 4's fields): an object as it is; anything else (text that is not JSON, an array, a number: a call
 * cut off, a parser that let broken JSON through) as the one member `arguments`, so that the call is
 * written with what it held rather than empty (the rule providers/arguments-object.ts follows); no
 * arguments as none.
 */
export function argumentsAsMembers(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value = argumentsForRendering(text);
  return isPlainObject(value) ? value : { arguments: value };
}

/**
 * Call arguments (JSON text) as key and value-text pairs, the way XML-ish families write them between
 * tags: strings as they are, every other value as JSON; arguments that are not an object as the one pair
 * `arguments` (argumentsAsMembers).
 */
export function rawArgumentEntries(text: string): [string, string][] {
  return Object.entries(argumentsAsMembers(text)).map(([key, member]) => [key, typeof member === 'string' ? member : formatJson(member)]);
}
