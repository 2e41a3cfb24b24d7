/** A tolerant JSON reader for model-written payloads, repairing in the tokenizer. */
// Single quotes, trailing commas, Python literals, raw newlines in strings and unquoted keys are
// handled while tokenizing, so words inside strings are never touched.
import { findTooDeepValue } from '../../src/core/find-too-deep-value.js';
import { deepestToolArguments } from '../../src/core/tool-arguments-depth.js';

export type LenientJsonOptions = {
  /** Close brackets still open when the text ends after a complete value (the envelope did close). */
  closeOpenBrackets?: boolean;
};

/** `incomplete`: the text ended before the value did (a cut-off payload, not a malformed one). */
export type LenientJsonError = { type: 'error'; message: string; position: number; incomplete: boolean };

export type LenientJsonRead = { type: 'value'; value: unknown; end: number } | LenientJsonError;

export type LenientJsonParse = { type: 'value'; value: unknown } | LenientJsonError;

/** Deeper nesting than any real tool call; keeps the recursive reader off the stack limit. */
const maximumDepth = deepestToolArguments;
const tooDeeplyNested = 'Too deeply nested';

/**
 * Whether a parsed value nests deeper than the tolerant reader reads. JSON.parse has no such bound, and
 * every walk after it (the non-finite number check, schema coercion, JSON.stringify) recurses: 100,000
 * levels overflowed the stack there.
 */
export function nestsTooDeep(value: unknown): boolean {
  return findTooDeepValue(value, maximumDepth) !== undefined;
}

const numberPattern = /[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const wordPattern = /[A-Za-z_$][\w$-]*/y;
const literalWords = new Map<string, unknown>([
  ['true', true],
  ['false', false],
  ['null', null],
  ['True', true],
  ['False', false],
  ['None', null],
]);
const simpleEscapes = new Map<string, string>([
  ['"', '"'],
  ["'", "'"],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
  ['\n', ''],
]);

class ReadFailure extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly incomplete: boolean,
  ) {
    super(message);
  }
}

/** Parses `text` as exactly one value (surrounding whitespace allowed). Tries the native parser first. */
export function parseLenientJson(text: string, options: LenientJsonOptions = {}): LenientJsonParse {
  const strict = parseStrictJson(text);
  if (strict !== undefined) return strict;
  const read = readLenientJson(text, 0, options);
  if (read.type === 'error') return read;
  const rest = skipSpace(text, read.end);
  if (rest < text.length)
    return { type: 'error', message: `Unexpected text after the value at ${rest}`, position: rest, incomplete: false };
  return { type: 'value', value: read.value };
}

/** JSON.parse's answer, held to the same depth bound as the tolerant reader; undefined when the text is not strict JSON. */
function parseStrictJson(text: string): LenientJsonParse | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return nestsTooDeep(value) ? { type: 'error', message: tooDeeplyNested, position: 0, incomplete: false } : { type: 'value', value };
}

/** Reads one value starting at `start` (after optional whitespace) and says where it ended. */
export function readLenientJson(text: string, start = 0, options: LenientJsonOptions = {}): LenientJsonRead {
  const reader = new LenientJsonReader(text, start, options.closeOpenBrackets === true);
  try {
    const value = reader.readValue(0);
    return { type: 'value', value, end: reader.position };
  } catch (error) {
    if (error instanceof ReadFailure)
      return { type: 'error', message: error.message, position: error.position, incomplete: error.incomplete };
    throw error;
  }
}

export function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && isSpace(text.charCodeAt(index))) index++;
  return index;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0xa0 || code === 0xfeff;
}

/** Assigns without letting a `__proto__` key reach the prototype. */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

class LenientJsonReader {
  constructor(
    readonly text: string,
    public position: number,
    private readonly closeOpenBrackets: boolean,
  ) {}

  readValue(depth: number): unknown {
    if (depth > maximumDepth) this.fail(tooDeeplyNested);
    this.position = skipSpace(this.text, this.position);
    if (this.position >= this.text.length) this.fail('Unexpected end of text');
    const character = this.text[this.position];
    switch (character) {
      case '{':
        return this.readObject(depth);
      case '[':
        return this.readArray(depth);
      case '"':
      case "'":
        return this.readString(character);
      default:
        return this.readScalar();
    }
  }

  private readObject(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.position++;
    for (;;) {
      this.position = skipSpace(this.text, this.position);
      if (this.atEnd()) return result;
      const character = this.text[this.position];
      if (character === '}') {
        this.position++;
        return result;
      }
      // Trailing, leading or doubled commas are noise.
      if (character === ',') {
        this.position++;
        continue;
      }
      const key = this.readKey();
      this.position = skipSpace(this.text, this.position);
      if (this.text[this.position] !== ':') this.fail(`Expected ":" after key "${key}"`);
      this.position++;
      defineKey(result, key, this.readValue(depth + 1));
      this.position = skipSpace(this.text, this.position);
      const next = this.text[this.position];
      // A missing comma between members is tolerated when another key follows.
      if (next !== undefined && next !== ',' && next !== '}' && !isKeyStart(next)) this.fail(`Unexpected "${next}" in object`);
    }
  }

  private readArray(depth: number): unknown[] {
    const result: unknown[] = [];
    this.position++;
    for (;;) {
      this.position = skipSpace(this.text, this.position);
      if (this.atEnd()) return result;
      const character = this.text[this.position];
      if (character === ']') {
        this.position++;
        return result;
      }
      if (character === ',') {
        this.position++;
        continue;
      }
      result.push(this.readValue(depth + 1));
      this.position = skipSpace(this.text, this.position);
      const next = this.text[this.position];
      if (next !== undefined && next !== ',' && next !== ']') this.fail(`Unexpected "${next}" in array`);
    }
  }

  /** True at the end of the text when open brackets may be closed there; fails otherwise. */
  private atEnd(): boolean {
    if (this.position < this.text.length) return false;
    if (this.closeOpenBrackets) return true;
    return this.fail('Unexpected end of text');
  }

  private readKey(): string {
    const character = this.text[this.position];
    if (character === '"' || character === "'") return this.readString(character);
    wordPattern.lastIndex = this.position;
    const word = wordPattern.exec(this.text);
    if (word !== null) {
      this.position += word[0].length;
      return word[0];
    }
    numberPattern.lastIndex = this.position;
    const number = numberPattern.exec(this.text);
    if (number !== null) {
      this.position += number[0].length;
      return number[0];
    }
    return this.fail(`Unexpected "${character}" where a key was expected`);
  }

  private readString(quote: string): string {
    const text = this.text;
    let index = this.position + 1;
    let segmentStart = index;
    let result = '';
    while (index < text.length) {
      const character = text[index];
      if (character === quote) {
        this.position = index + 1;
        return result + text.slice(segmentStart, index);
      }
      if (character !== '\\') {
        // Raw newlines, tabs and other control characters are kept as written.
        index++;
        continue;
      }
      result += text.slice(segmentStart, index);
      const escape = text[index + 1];
      if (escape === undefined) break;
      const simple = simpleEscapes.get(escape);
      if (simple !== undefined) {
        result += simple;
        index += 2;
      } else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
        result += String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 6), 16));
        index += 6;
      } else if (escape === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(index + 2, index + 4))) {
        result += String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 4), 16));
        index += 4;
      } else {
        // An unknown escape (a Windows path, a regex) keeps its backslash, as Python does.
        result += '\\' + escape;
        index += 2;
      }
      segmentStart = index;
    }
    this.position = text.length;
    return this.fail('Unterminated string');
  }

  private readScalar(): unknown {
    numberPattern.lastIndex = this.position;
    const number = numberPattern.exec(this.text);
    if (number !== null) {
      this.position += number[0].length;
      return Number(number[0]);
    }
    wordPattern.lastIndex = this.position;
    const word = wordPattern.exec(this.text);
    if (word !== null && literalWords.has(word[0])) {
      this.position += word[0].length;
      return literalWords.get(word[0]);
    }
    return this.fail(`Unexpected ${word === null ? `"${this.text[this.position]}"` : `word "${word[0]}"`}`);
  }

  private fail(message: string): never {
    throw new ReadFailure(`${message} at ${this.position}`, this.position, this.position >= this.text.length);
  }
}

function isKeyStart(character: string): boolean {
  return character === '"' || character === "'" || /[A-Za-z_$]/.test(character);
}
