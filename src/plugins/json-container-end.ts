/**
 * Where a JSON array or object that starts at a given offset ends, found without parsing it: brackets
 * are counted outside strings only, so a `]` inside a description does not end a tool list.
 * A locator, not a validator: callers prove what it found by parsing (see known-tool-lists.ts).
 */

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;

/** A quote preceded by an odd number of backslashes is part of the string, not its end. */
function isEscaped(text: string, quoteAt: number): boolean {
  let backslashes = 0;
  for (let at = quoteAt - 1; text.charCodeAt(at) === backslash; at--) backslashes++;
  return backslashes % 2 === 1;
}

/** The offset of the quote that closes the string opened at `openingAt`, or -1. */
function closingQuote(text: string, openingAt: number): number {
  // indexOf skips the string's content natively: tool lists are mostly strings, so this is most of the scan.
  let at = text.indexOf('"', openingAt + 1);
  while (at !== -1 && isEscaped(text, at)) at = text.indexOf('"', at + 1);
  return at;
}

/** The offset just after the bracket or brace that closes the one at `start`, or -1 when it never closes. */
export function findJsonContainerEnd(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === quote) {
      at = closingQuote(text, at);
      if (at === -1) return -1;
    } else if (code === openBracket || code === openBrace) {
      depth++;
    } else if ((code === closeBracket || code === closeBrace) && --depth === 0) {
      return at + 1;
    }
  }
  return -1;
}
