/**
 * Follows argument text as it streams and passes on only what keeps it a prefix of strict JSON, so a
 * client accumulating the deltas ends with valid JSON whenever the text can be repaired token by token.
 * The repairs, all in the tokenizer (never inside a string's words): a trailing comma is held until the
 * next token shows whether a closer follows it (then dropped); missing closers at the end are appended;
 * single-quoted strings are written double-quoted; raw control characters in strings are escaped;
 * Python's `True`/`False`/`None` become `true`/`false`/`null` (numbers and words are held until they end,
 * so `1.` is never passed on). Anything else that is not JSON (unquoted keys, comments) stops the passing
 * on: the rest is held for the caller to decide.
 */

type State =
  | 'value' // a value must come (top level, after `:`, after `,` in an array)
  | 'value-or-close' // just after `[`
  | 'key' // after `,` in an object
  | 'key-or-close' // just after `{`
  | 'colon'
  | 'after-value'
  | 'string'
  | 'escape'
  | 'unicode'
  | 'token' // a number or a literal
  | 'broken';

const whitespace: ReadonlySet<string> = new Set([' ', '\t', '\n', '\r']);
const numberPattern = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const literals: ReadonlyMap<string, string> = new Map([
  ['true', 'true'],
  ['false', 'false'],
  ['null', 'null'],
  ['True', 'true'],
  ['False', 'false'],
  ['None', 'null'],
]);
const controlEscapes: ReadonlyMap<string, string> = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);
const simpleEscapes: ReadonlySet<string> = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** A number or literal as strict JSON, or undefined when it is neither. */
function tokenJson(text: string): string | undefined {
  return numberPattern.test(text) ? text : literals.get(text);
}

/** A control character, which JSON strings may not hold raw, escaped. */
function escapeControl(character: string): string {
  return controlEscapes.get(character) ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export class StrictJsonPrefix {
  /** Everything pushed, as received. */
  received = '';
  /** Everything passed on so far: always a prefix of some strict JSON text. */
  passed = '';
  /** Text not passed on yet (a pending comma and the space after it, a token, or everything once broken). */
  held = '';
  /** What was passed on differs from what was received (a repair). */
  altered = false;
  private state: State = 'value';
  private readonly containers: ('}' | ']')[] = [];
  /** In a string: whether it is a key (a colon follows it), and the quote that opened it. */
  private stringIsKey = false;
  private quote = '"';
  private unicodeDigits = 0;
  /** A `,` held with the whitespace after it. */
  private pendingComma = false;
  private topLevelDone = false;
  /** What ends a run of plain string content: a quote, an escape, a control character (not allowed raw). */
  // eslint-disable-next-line no-control-regex -- the control characters are what this looks for
  private readonly stringSpecial = /["'\\\u0000-\u001f]/g;

  get broken(): boolean {
    return this.state === 'broken';
  }

  /** The top-level value is complete: anything but whitespace after it is held (and breaks the text). */
  get complete(): boolean {
    return this.topLevelDone;
  }

  /** Takes the next piece of text; returns what may be passed on now. */
  push(text: string): string {
    this.received += text;
    const before = this.passed.length;
    let at = 0;
    while (at < text.length) {
      // Arguments are mostly string content: passed on a run at a time, not a character at a time.
      if (this.state === 'string') {
        this.stringSpecial.lastIndex = at;
        const end = this.stringSpecial.exec(text)?.index ?? text.length;
        if (end > at) {
          this.passed += text.slice(at, end);
          at = end;
          continue;
        }
      }
      this.step(text.charAt(at));
      at++;
    }
    return this.passed.slice(before);
  }

  /**
   * What completes the value when the arguments end here: a held number or literal and the missing
   * closers (a held trailing comma is dropped), or undefined when only a lenient reader could make JSON
   * of it (cut inside a string or after a key, an empty text, or broken).
   */
  completion(): string | undefined {
    let tail: string;
    if (this.state === 'token') {
      const json = tokenJson(this.held);
      if (json === undefined) return undefined;
      tail = json;
    } else if (this.pendingComma) {
      tail = '';
    } else if (this.state === 'after-value') {
      tail = this.held;
    } else {
      return undefined;
    }
    return `${tail}${[...this.containers].reverse().join('')}`;
  }

  private pass(text: string): void {
    this.passed += text;
  }

  private repair(text: string): void {
    this.passed += text;
    this.altered = true;
  }

  private openString(isKey: boolean, quote: string): void {
    this.stringIsKey = isKey;
    this.quote = quote;
    if (quote === '"') this.pass(quote);
    else this.repair('"');
    this.state = 'string';
  }

  private breakHere(character: string): void {
    this.state = 'broken';
    this.held += character;
  }

  private step(character: string): void {
    switch (this.state) {
      case 'broken':
        this.held += character;
        return;
      case 'string':
        if (character === this.quote) {
          this.pass('"');
          this.state = this.stringIsKey ? 'colon' : 'after-value';
          this.afterValue();
        } else if (character === '\\') {
          this.held = character;
          this.state = 'escape';
        } else if (character < ' ') {
          this.repair(escapeControl(character));
        } else if (character === '"') {
          this.repair('\\"');
        } else {
          this.pass(character);
        }
        return;
      case 'escape':
        if (character === "'") {
          this.held = '';
          this.state = 'string';
          this.repair("'");
        } else if (simpleEscapes.has(character) || character === 'u') {
          this.pass(`${this.held}${character}`);
          this.held = '';
          this.state = character === 'u' ? 'unicode' : 'string';
          this.unicodeDigits = 0;
        } else {
          this.breakHere(character);
        }
        return;
      case 'unicode':
        if (!/[0-9a-fA-F]/.test(character)) return this.breakHere(character);
        this.pass(character);
        if (++this.unicodeDigits === 4) this.state = 'string';
        return;
      case 'token':
        if (/[\w.+-]/.test(character)) {
          this.held += character;
          return;
        }
        if (!this.acceptToken()) return this.breakHere(character);
        return this.step(character);
      default:
        return this.structural(character);
    }
  }

  /** A number or literal ended: passed on when strict, else the text is broken from its start. */
  private acceptToken(): boolean {
    const json = tokenJson(this.held);
    if (json === undefined) {
      this.state = 'broken';
      return false;
    }
    if (json === this.held) this.pass(json);
    else this.repair(json);
    this.held = '';
    this.state = 'after-value';
    this.afterValue();
    return true;
  }

  /** Outside strings and tokens. */
  private structural(character: string): void {
    if (whitespace.has(character)) {
      if (this.pendingComma) this.held += character;
      else this.pass(character);
      return;
    }
    if (this.pendingComma) {
      const top = this.containers.at(-1);
      if (character === top) {
        // A trailing comma: dropped, the space after it kept.
        this.pendingComma = false;
        this.altered = true;
        this.pass(this.held.slice(1));
        this.held = '';
        this.state = 'after-value';
      } else {
        this.pendingComma = false;
        this.pass(this.held);
        this.held = '';
      }
    }
    if (this.topLevelDone) return this.breakHere(character);
    switch (this.state) {
      case 'after-value':
        if (character === ',' && this.containers.length > 0) {
          this.pendingComma = true;
          this.held = character;
          this.state = this.containers.at(-1) === '}' ? 'key' : 'value';
          return;
        }
        if (character === this.containers.at(-1)) {
          this.containers.pop();
          this.pass(character);
          this.afterValue();
          return;
        }
        return this.breakHere(character);
      case 'colon':
        if (character !== ':') return this.breakHere(character);
        this.pass(character);
        this.state = 'value';
        return;
      case 'key-or-close':
      case 'key':
        if (character === '}' && this.state === 'key-or-close') {
          this.containers.pop();
          this.pass(character);
          this.state = 'after-value';
          this.afterValue();
          return;
        }
        if (character !== '"' && character !== "'") return this.breakHere(character);
        return this.openString(true, character);
      case 'value-or-close':
        if (character === ']') {
          this.containers.pop();
          this.pass(character);
          this.state = 'after-value';
          this.afterValue();
          return;
        }
        return this.startValue(character);
      case 'value':
        return this.startValue(character);
      default:
        return this.breakHere(character);
    }
  }

  private startValue(character: string): void {
    if (character === '{' || character === '[') {
      this.containers.push(character === '{' ? '}' : ']');
      this.pass(character);
      this.state = character === '{' ? 'key-or-close' : 'value-or-close';
    } else if (character === '"' || character === "'") {
      this.openString(false, character);
    } else if (/[-\w]/.test(character)) {
      this.held = character;
      this.state = 'token';
    } else {
      this.breakHere(character);
    }
  }

  /** After a complete value: at the top level nothing but whitespace may follow. */
  private afterValue(): void {
    if (this.state === 'after-value' && this.containers.length === 0) this.topLevelDone = true;
  }
}
