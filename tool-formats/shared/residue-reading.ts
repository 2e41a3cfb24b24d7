/** Small readers for residue sites: a literal, a run of spaces, a quoted tool name, decided by a bounded prefix. */
// Each answers the index after what it read, or `more` when the text ends first (a proper prefix), or
// `none`. Bounds keep a site's decision to a short prefix, so holding text for it stays linear.
import type { ToolRoster } from './tool-roster.js';

export const more = -1;
export const none = -2;
/** An index after a read, or `more`, or `none`. */
export type Read = number;

const maxSpaces = 16;
const maxNameLength = 128;

export function readLiteral(text: string, index: number, literal: string): Read {
  const available = Math.min(literal.length, text.length - index);
  for (let offset = 0; offset < available; offset++) if (text.charCodeAt(index + offset) !== literal.charCodeAt(offset)) return none;
  return available < literal.length ? more : index + literal.length;
}

/** Up to 16 spaces, tabs or newlines; more than that is no residue. */
export function readSpaces(text: string, index: number): Read {
  let end = index;
  while (end < text.length && /\s/.test(text.charAt(end))) {
    end++;
    if (end - index > maxSpaces) return none;
  }
  return end;
}

/** A JSON string holding an offered tool's name (no escapes): `"get_weather"`. */
export function readOfferedName(text: string, index: number, roster: ToolRoster): Read {
  const open = readLiteral(text, index, '"');
  if (open < 0) return open;
  const limit = Math.min(text.length, open + maxNameLength + 1);
  for (let end = open; end < limit; end++) {
    const code = text.charCodeAt(end);
    if (code === 0x5c || code === 0x0a) return none;
    if (code === 0x22) return roster.resolve(text.slice(open, end)) === undefined ? none : end + 1;
  }
  return limit === text.length && limit - open <= maxNameLength ? more : none;
}

/** Reads `readers` one after another from `index`; each gets the index the previous one ended at. */
export function readSequence(text: string, index: number, readers: readonly ((text: string, index: number) => Read)[]): Read {
  let at = index;
  for (const reader of readers) {
    at = reader(text, at);
    if (at < 0) return at;
  }
  return at;
}

/**
 * The head of a JSON call to an offered tool, up to its name: `{"name": "get_weather"` (also after
 * `"type": "function",`, as Llama 3.2 writes it), or in a list, `[{"name": …`. Only the name's key
 * first: that is how the templates of the families that write bare JSON calls show them.
 */
export function readCallHead(text: string, index: number, roster: ToolRoster): Read {
  const spaces = (source: string, at: number) => readSpaces(source, at);
  const literal = (value: string) => (source: string, at: number) => readLiteral(source, at, value);
  let at = index;
  if (text.charCodeAt(at) === 0x5b) {
    at = readSpaces(text, at + 1);
    if (at < 0) return at;
  }
  at = readSequence(text, at, [literal('{'), spaces]);
  if (at < 0) return at;
  const typed = readSequence(text, at, [
    literal('"type"'),
    spaces,
    literal(':'),
    spaces,
    literal('"function"'),
    spaces,
    literal(','),
    spaces,
  ]);
  if (typed === more) return more;
  if (typed >= 0) at = typed;
  return readSequence(text, at, [literal('"name"'), spaces, literal(':'), spaces, (source, from) => readOfferedName(source, from, roster)]);
}

/** A JSON object's opening at `index` (`{`, spaces, then a key's quote or the closing brace): the index of the `{`. */
export function readObjectOpening(text: string, index: number): Read {
  const open = readLiteral(text, index, '{');
  if (open < 0) return open;
  const spaces = readSpaces(text, open);
  if (spaces < 0) return spaces;
  if (spaces >= text.length) return more;
  const code = text.charCodeAt(spaces);
  return code === 0x22 || code === 0x7d ? index : none;
}
