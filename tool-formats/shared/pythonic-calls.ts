/** Reads Python-style call lists, [get_weather(city="Paris"), get_time()], with a small tokenizer. */
// Python literals (quotes of every kind, True/False/None, lists, tuples, dicts) and **{…}. Never eval.
import { defineKey } from './lenient-json.js';

export type PythonicCall = { name: string; positional: unknown[]; keywords: Record<string, unknown> };

export type PythonicRead = { type: 'calls'; calls: PythonicCall[] } | { type: 'error'; message: string };

const maximumDepth = 200;
const namePattern = /[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*/y;
const numberPattern = /[+-]?(?:0[xX][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/y;
const stringPrefixPattern = /(?:[rRuUbBfF]|[rR][bBfF]|[bBfF][rR])?(?:'''|"""|'|")/y;
const literalWords = new Map<string, unknown>([
  ['True', true],
  ['False', false],
  ['None', null],
  // Olmo and friends write JSON literals inside Python calls.
  ['true', true],
  ['false', false],
  ['null', null],
]);
const escapes = new Map<string, string>([
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['b', '\b'],
  ['f', '\f'],
  ['0', '\0'],
  ['\\', '\\'],
  ["'", "'"],
  ['"', '"'],
  ['\n', ''],
]);

const newlineCode = 0x0a;
const backslashCode = 0x5c;
const stringPrefixLetters = new Set(['r', 'R', 'u', 'U', 'b', 'B', 'f', 'F']);

class PythonicError extends Error {}

function mayOpenString(character: string): boolean {
  return character === '"' || character === "'" || stringPrefixLetters.has(character);
}

/** What the pattern `\s` matches, with the ASCII answer computed and the rest left to the pattern. */
function isPythonSpace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return /\s/.test(String.fromCharCode(code));
}

/** `[call, …]`, or calls separated by commas, semicolons or newlines. */
export function readPythonicCalls(text: string): PythonicRead {
  const reader = new PythonicReader(text);
  try {
    return { type: 'calls', calls: reader.readCalls() };
  } catch (error) {
    if (error instanceof PythonicError) return { type: 'error', message: error.message };
    throw error;
  }
}

class PythonicReader {
  private position = 0;

  constructor(private readonly text: string) {}

  readCalls(): PythonicCall[] {
    const calls: PythonicCall[] = [];
    this.skipSpace();
    const bracketed = this.text[this.position] === '[';
    if (bracketed) this.position++;
    for (;;) {
      this.skipSeparators();
      if (this.position >= this.text.length) {
        if (bracketed) this.fail('Missing "]"');
        break;
      }
      if (bracketed && this.text[this.position] === ']') {
        this.position++;
        this.skipSeparators();
        if (this.position < this.text.length) this.fail('Unexpected text after "]"');
        break;
      }
      calls.push(this.readCall());
    }
    if (calls.length === 0) this.fail('No call');
    return calls;
  }

  private readCall(): PythonicCall {
    const name = this.readName();
    this.skipSpace();
    this.expect('(');
    const positional: unknown[] = [];
    const keywords: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.text[this.position] === ')') {
        this.position++;
        return { name, positional, keywords };
      }
      if (this.text.startsWith('**', this.position)) {
        this.position += 2;
        const spread = this.readValue(0);
        if (typeof spread !== 'object' || spread === null || Array.isArray(spread)) this.fail('"**" needs a dict');
        for (const [key, value] of Object.entries(spread as Record<string, unknown>)) defineKey(keywords, key, value);
      } else if (this.atKeyword()) {
        const key = this.readName();
        this.skipSpace();
        this.expect('=');
        defineKey(keywords, key, this.readValue(0));
      } else {
        positional.push(this.readValue(0));
      }
      this.skipSpace();
      if (this.text[this.position] === ',') this.position++;
      else if (this.text[this.position] !== ')') this.fail(`Expected "," or ")"`);
    }
  }

  /** A keyword argument starts with `name =` (but not `name ==`). */
  private atKeyword(): boolean {
    namePattern.lastIndex = this.position;
    const match = namePattern.exec(this.text);
    if (match === null || match[0].includes('.')) return false;
    let index = match.index + match[0].length;
    while (this.text[index] === ' ' || this.text[index] === '\t') index++;
    return this.text[index] === '=' && this.text[index + 1] !== '=';
  }

  private readValue(depth: number): unknown {
    if (depth > maximumDepth) this.fail('Too deeply nested');
    this.skipSpace();
    const character = this.text[this.position];
    if (character === undefined) this.fail('Unexpected end of text');
    // Only a quote or a prefix letter can open a string: the pattern is not tried on the rest.
    if (mayOpenString(character)) {
      stringPrefixPattern.lastIndex = this.position;
      const stringStart = stringPrefixPattern.exec(this.text);
      if (stringStart !== null) return this.readString(stringStart[0]);
    }
    switch (character) {
      case '[':
        return this.readSequence(']', depth);
      case '(':
        return this.readSequence(')', depth);
      case '{':
        return this.readDict(depth);
    }
    numberPattern.lastIndex = this.position;
    const number = numberPattern.exec(this.text);
    if (number !== null) {
      this.position += number[0].length;
      return Number(number[0].replaceAll('_', ''));
    }
    namePattern.lastIndex = this.position;
    const word = namePattern.exec(this.text);
    if (word !== null && literalWords.has(word[0])) {
      this.position += word[0].length;
      return literalWords.get(word[0]);
    }
    return this.fail(word === null ? `Unexpected "${character}"` : `Unsupported value "${word[0]}"`);
  }

  /** Lists and tuples become arrays; `(x)` without a comma is just `x`. */
  private readSequence(close: string, depth: number): unknown {
    this.position++;
    const items: unknown[] = [];
    let sawComma = false;
    for (;;) {
      this.skipSpace();
      if (this.text[this.position] === close) {
        this.position++;
        return close === ')' && items.length === 1 && !sawComma ? items[0] : items;
      }
      items.push(this.readValue(depth + 1));
      this.skipSpace();
      if (this.text[this.position] === ',') {
        this.position++;
        sawComma = true;
      } else if (this.text[this.position] !== close) {
        this.fail(`Expected "," or "${close}"`);
      }
    }
  }

  private readDict(depth: number): Record<string, unknown> {
    this.position++;
    const result: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.text[this.position] === '}') {
        this.position++;
        return result;
      }
      const key = this.readValue(depth + 1);
      this.skipSpace();
      this.expect(':');
      const value = this.readValue(depth + 1);
      defineKey(result, typeof key === 'string' ? key : JSON.stringify(key), value);
      this.skipSpace();
      if (this.text[this.position] === ',') this.position++;
      else if (this.text[this.position] !== '}') this.fail('Expected "," or "}"');
    }
  }

  private readString(opener: string): string {
    const quote = opener.endsWith('"""') || opener.endsWith("'''") ? opener.slice(-3) : opener.slice(-1);
    const raw = /[rR]/.test(opener.slice(0, -quote.length));
    const text = this.text;
    const quoteCode = quote.charCodeAt(0);
    // Codes compared rather than characters read: a string argument (a file's text) is most of a call.
    const newlineEnds = quote.length === 1;
    let index = this.position + opener.length;
    let segmentStart = index;
    let result = '';
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === quoteCode && text.startsWith(quote, index)) {
        this.position = index + quote.length;
        return result + text.slice(segmentStart, index);
      }
      if (code === newlineCode && newlineEnds) this.fail('Newline in a string');
      if (code !== backslashCode || raw) {
        index++;
        continue;
      }
      result += text.slice(segmentStart, index);
      const escape = this.text[index + 1];
      if (escape === undefined) break;
      const simple = escapes.get(escape);
      const hexLength = escape === 'x' ? 2 : escape === 'u' ? 4 : escape === 'U' ? 8 : 0;
      const hex = this.text.slice(index + 2, index + 2 + hexLength);
      if (simple !== undefined) {
        result += simple;
        index += 2;
      } else if (hexLength > 0 && hex.length === hexLength && /^[0-9a-fA-F]+$/.test(hex) && Number.parseInt(hex, 16) <= 0x10ffff) {
        result += String.fromCodePoint(Number.parseInt(hex, 16));
        index += 2 + hexLength;
      } else {
        result += '\\' + escape;
        index += 2;
      }
      segmentStart = index;
    }
    return this.fail('Unterminated string');
  }

  private readName(): string {
    namePattern.lastIndex = this.position;
    const match = namePattern.exec(this.text);
    if (match === null) this.fail('Expected a function name');
    this.position += match[0].length;
    return match[0];
  }

  private expect(character: string): void {
    if (this.text[this.position] !== character) this.fail(`Expected "${character}"`);
    this.position++;
  }

  private skipSpace(): void {
    while (this.position < this.text.length && isPythonSpace(this.text.charCodeAt(this.position))) this.position++;
  }

  private skipSeparators(): void {
    this.skipSpace();
    while (this.text[this.position] === ',' || this.text[this.position] === ';') {
      this.position++;
      this.skipSpace();
    }
  }

  private fail(message: string): never {
    throw new PythonicError(`${message} at ${this.position}`);
  }
}
