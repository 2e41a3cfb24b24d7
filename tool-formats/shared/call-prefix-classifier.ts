/** Decides from the first bytes of bare JSON or a ```json fence whether it could still be a tool call. */
// So an ordinary JSON answer is released as text at once instead of waiting for its end. The answer
// is monotone and position-stable: once `not-call` at `end` for some prefix, every longer prefix
// gives the same answer with the same `end`, so the release point does not depend on chunking.
import type { ToolRoster } from './tool-roster.js';

export type CallPrefixClass =
  | { type: 'undecided' }
  /** Could be a call: hold it until it closes, then decode it. */
  | { type: 'call-like' }
  /** Cannot be a call: `text[0..end)` settled it; everything is text. */
  | { type: 'not-call'; end: number };

const nameKeys = new Set(['name', 'tool_name', 'tool', 'function']);
const callKeys = new Set([...nameKeys, 'arguments', 'parameters', 'params', 'input', 'type', 'id', 'call_id', 'tool_call', 'tool_calls']);

const undecided: CallPrefixClass = { type: 'undecided' };
const backslash = 0x5c;
const callLike: CallPrefixClass = { type: 'call-like' };

export function classifyCallPrefix(text: string, roster: ToolRoster): CallPrefixClass {
  const start = skipSpace(text, 0);
  if (start >= text.length) return undecided;
  if (text[start] === '{') return classifyObject(text, start, roster);
  if (text[start] !== '[') return { type: 'not-call', end: start + 1 };
  const first = skipSpace(text, start + 1);
  if (first >= text.length) return undecided;
  if (text[first] === '{') return classifyObject(text, first, roster);
  const identifier = readIdentifier(text, first);
  if (identifier === undefined) return { type: 'not-call', end: first + 1 };
  if (identifier.end >= text.length) return undecided;
  // A pythonic list: `[get_weather(`.
  const parenthesis = skipSpace(text, identifier.end);
  if (parenthesis >= text.length) return undecided;
  if (text[parenthesis] === '(' && roster.resolve(identifier.value) !== undefined) return callLike;
  return { type: 'not-call', end: identifier.end };
}

function classifyObject(text: string, open: number, roster: ToolRoster): CallPrefixClass {
  const keyStart = skipSpace(text, open + 1);
  if (keyStart >= text.length) return undecided;
  const key = readKey(text, keyStart);
  if (key === undefined) return { type: 'not-call', end: keyStart + 1 };
  if (key === 'incomplete') return undecided;
  if (!callKeys.has(key.value)) return { type: 'not-call', end: key.end };
  if (!nameKeys.has(key.value)) return callLike;
  const colon = skipSpace(text, key.end);
  if (colon >= text.length) return undecided;
  if (text[colon] !== ':') return { type: 'not-call', end: colon + 1 };
  const valueStart = skipSpace(text, colon + 1);
  if (valueStart >= text.length) return undecided;
  const quote = text[valueStart];
  if (quote === '"' || quote === "'") {
    const value = readQuoted(text, valueStart);
    if (value === 'incomplete') return undecided;
    return roster.resolve(value.value.trim()) !== undefined ? callLike : { type: 'not-call', end: value.end };
  }
  // `{"function": {"name": …}}` is the OpenAI shape: decided when it closes.
  if (key.value === 'function' && text[valueStart] === '{') return callLike;
  return { type: 'not-call', end: valueStart + 1 };
}

type Token = { value: string; end: number };

function readKey(text: string, start: number): Token | 'incomplete' | undefined {
  const character = text[start];
  if (character === '"' || character === "'") return readQuoted(text, start);
  const identifier = readIdentifier(text, start);
  if (identifier === undefined) return undefined;
  return identifier.end >= text.length ? 'incomplete' : identifier;
}

/** A quoted token's text, its escapes read as the character they escape; copied in runs, as this runs on every chunk of a candidate's head. */
function readQuoted(text: string, start: number): Token | 'incomplete' {
  const quote = text.charCodeAt(start);
  let value = '';
  let run = start + 1;
  for (let index = start + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === quote) return { value: value + text.slice(run, index), end: index + 1 };
    if (code === backslash) {
      value += text.slice(run, index) + (text[index + 1] ?? '');
      index++;
      run = index + 1;
    }
  }
  return 'incomplete';
}

const identifierPattern = /[A-Za-z_$][\w$.-]*/y;

function readIdentifier(text: string, start: number): Token | undefined {
  identifierPattern.lastIndex = start;
  const found = identifierPattern.exec(text);
  return found === null ? undefined : { value: found[0], end: start + found[0].length };
}

function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && isSpaceAt(text, index)) index++;
  return index;
}

/** `/\s/` by character code, the regular expression only for non-ASCII characters (Unicode spaces). */
function isSpaceAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return /\s/.test(text[index] as string);
}
