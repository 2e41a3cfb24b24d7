/** Incremental lexical state of a JSON-ish or Python-literal body: in a string or not, bracket depth. */
// Lets scanners ignore markers inside strings without re-reading earlier text.
import type { CharCodeSet } from './char-code-set.js';

const doubleQuote = 0x22;
const singleQuote = 0x27;
const backslash = 0x5c;
const newline = 0x0a;

export class JsonScanState {
  /** Open `{`, `[` and `(` outside strings. Parentheses count so Python calls balance too. */
  depth = 0;
  /** The quote that opened the current string, 0 outside strings. */
  quote = 0;
  escaped = false;
  /** Top-level values closed so far (the depth went back to 0). */
  completedValues = 0;

  get inString(): boolean {
    return this.quote !== 0;
  }

  /** Advances over one character (used after a stop character turned out not to start a marker). */
  step(code: number): void {
    if (this.quote !== 0) {
      if (this.escaped) this.escaped = false;
      else if (code === backslash) this.escaped = true;
      else if (code === this.quote || (code === newline && this.quote === singleQuote)) this.quote = 0;
    } else if ((code === doubleQuote || code === singleQuote) && this.depth > 0) {
      this.quote = code;
    } else if (code === 0x7b || code === 0x5b || code === 0x28) {
      this.depth++;
    } else if ((code === 0x7d || code === 0x5d || code === 0x29) && this.depth > 0) {
      this.depth--;
      if (this.depth === 0) this.completedValues++;
    }
  }
}

/**
 * Advances `state` over `text` from `from`. Stops before a character of `stops` met outside a string
 * (the caller decides whether a marker starts there, then `step`s over it if not), or just after a
 * top-level value closes when `stopAfterValue` is set. Returns the index where it stopped.
 *
 * Guards against an apostrophe hiding the rest of the reply: a single-quoted string also ends at a
 * newline (Python's cannot span lines), and at depth 0 (before or after the body's values, where
 * prose like "I'll" may sit) quotes open no string.
 */
export function advanceJsonScan(
  state: JsonScanState,
  text: string,
  from: number,
  stops: CharCodeSet | undefined,
  stopAfterValue: boolean,
): number {
  let depth = state.depth;
  let quote = state.quote;
  let escaped = state.escaped;
  let index = from;
  const length = text.length;
  // Long string text (a file's content) is crossed with native searches instead of a step per character:
  // here when the text starts inside a string, below when one opens.
  if (quote !== 0 && !escaped && length - index >= stringJumpLength) {
    const close = stringClose(text, index, quote);
    escaped = close < 0 && endsInEscape(text, index, length);
    quote = close < 0 ? quote : 0;
    index = close < 0 ? length : close + 1;
  }
  for (; index < length; index++) {
    const code = text.charCodeAt(index);
    if (quote !== 0) {
      if (escaped) escaped = false;
      else if (code === backslash) escaped = true;
      else if (code === quote || (code === newline && quote === singleQuote)) quote = 0;
      continue;
    }
    if (stops !== undefined && stops.has(code)) break;
    if (code === doubleQuote || code === singleQuote) {
      if (depth === 0) continue;
      if (length - index <= stringJumpLength) {
        quote = code;
        continue;
      }
      const close = stringClose(text, index + 1, code);
      if (close < 0) {
        quote = code;
        escaped = endsInEscape(text, index + 1, length);
        index = length;
        break;
      }
      // The loop steps past the closing quote.
      index = close;
    } else if (code === 0x7b || code === 0x5b || code === 0x28) {
      depth++;
    } else if ((code === 0x7d || code === 0x5d || code === 0x29) && depth > 0) {
      depth--;
      if (depth === 0) {
        state.completedValues++;
        if (stopAfterValue) {
          index++;
          break;
        }
      }
    }
  }
  state.depth = depth;
  state.quote = quote;
  state.escaped = escaped;
  return index;
}

/**
 * Advances `state` over all of `text` when nothing in it needs the caller's full scan: no character of
 * `stops` outside a string and, when `valueEnds`, no top-level value closing. Otherwise the state is
 * left as it was and the answer is false. The fast path of scanners over the many small chunks inside
 * a long body (see `BodyScanner.takeLeading`).
 */
export function advanceJsonScanOverChunk(state: JsonScanState, text: string, stops: CharCodeSet | undefined, valueEnds: boolean): boolean {
  const { depth, quote, escaped, completedValues } = state;
  if (advanceJsonScan(state, text, 0, stops, valueEnds) >= text.length && !(valueEnds && state.completedValues > completedValues))
    return true;
  state.depth = depth;
  state.quote = quote;
  state.escaped = escaped;
  state.completedValues = completedValues;
  return false;
}

/** Below this many characters left, a string is stepped through: a search costs more than a few steps. */
const stringJumpLength = 24;

/**
 * Where the string open at `from` (no escape pending there) closes: the index of its closing quote (or,
 * for a single-quoted one, newline), -1 when `text` ends inside it. A quote ends the string when an
 * even number of backslashes runs up to it, as `JsonScanState.step` decides one character at a time.
 */
function stringClose(text: string, from: number, quote: number): number {
  const quoteCharacter = quote === singleQuote ? "'" : '"';
  for (let search = from; ;) {
    let close = text.indexOf(quoteCharacter, search);
    if (quote === singleQuote) {
      const newlineAt = text.indexOf('\n', search);
      if (newlineAt >= 0 && (close < 0 || newlineAt < close)) close = newlineAt;
    }
    if (close < 0) return -1;
    if (!endsInEscape(text, from, close)) return close;
    search = close + 1;
  }
}

/** Whether `text[from..end)` ends in an odd run of backslashes (the next character is escaped). */
function endsInEscape(text: string, from: number, end: number): boolean {
  let index = end;
  while (index > from && text.charCodeAt(index - 1) === backslash) index--;
  return (end - index) % 2 === 1;
}
