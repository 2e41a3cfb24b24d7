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

/**
 * A fence's opening line: ``` at the start of a line (up to three spaces in), an info string (`json`), the line's
 * end; and its closer, ``` at the start of a later line (CommonMark's fenced code blocks). Backticks elsewhere
 * are not a fence: in prose ("no ``` fences"), or in a JSON string (a `code` field holding "```python\n…```"),
 * which cannot start a line since JSON strings hold no raw line breaks.
 */
const fenceOpener = /(?:^|\n) {0,3}```[^`\n]*\n/;
const fenceCloser = /(?:^|\n) {0,3}```/;

/** The body of the first ``` fence (```json or bare), or undefined when the text has none. */
function fencedBody(text: string): string | undefined {
  const open = fenceOpener.exec(text);
  if (!open) return undefined;
  const body = text.slice(open.index + open[0].length);
  // A missing closer (the model stopped after the JSON) still leaves the body.
  const close = fenceCloser.exec(body);
  return body.slice(0, close ? close.index : undefined).trim();
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

/** How many bracketed spans are parsed at most: prose is short, and a reply of many spans is not one JSON answer. */
const spanLimit = 8;

/**
 * The top-level balanced `{…}` and `[…]` spans of `text`, in order: prose around and between them skipped,
 * brackets inside a JSON string ignored (a `"` opens a string only inside a bracket, so an apostrophe or a
 * quote in the prose opens none). Prose with brackets of its own ("[as requested]", "{city}") is one more
 * span that does not parse.
 */
function balancedSpans(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let index = 0; index < text.length && spans.length < spanLimit; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"' && depth > 0) inString = true;
    else if (character === '{' || character === '[') {
      if (depth++ === 0) start = index;
    } else if ((character === '}' || character === ']') && depth > 0 && --depth === 0) spans.push(text.slice(start, index + 1));
  }
  return spans;
}

/** The longest span that parses: the answer is the biggest JSON value in the reply, not an aside like "[1, 2]". */
function longestParsedSpan(text: string): ExtractedJson | undefined {
  let best: ExtractedJson | undefined;
  for (const span of balancedSpans(text)) {
    const value = parsed(span);
    if (value?.type === 'json' && (best?.type !== 'json' || span.length > best.text.length)) best = value;
  }
  return best;
}

/**
 * Tries, in order: the text as is, the fence's body, the longest balanced span that parses; then one
 * repair (trailing commas, single quotes, missing closers) of the fence's body or the bracketed span.
 * Bounded: a fixed number of parses.
 */
export function extractJsonReply(text: string, repair: JsonRepair | undefined): ExtractedJson {
  const trimmed = text.trim();
  const whole = parsed(trimmed);
  if (whole) return whole;
  const fenced = fencedBody(trimmed);
  const direct = fenced !== undefined ? parsed(fenced) : longestParsedSpan(trimmed);
  if (direct) return direct;
  const candidate = fenced ?? bracketed(trimmed) ?? trimmed;
  const repaired = repair?.(candidate);
  return (repaired !== undefined && parsed(repaired)) || { type: 'invalid' };
}
