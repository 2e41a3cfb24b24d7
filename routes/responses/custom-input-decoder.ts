/**
 * Unwraps a freeform tool's raw input from the `{"input": "…"}` arguments it travels in, while
 * they stream: each argument fragment yields the newly decoded characters of the string, so
 * `custom_tool_call_input.delta` streams text as the model writes it. Arguments of another shape
 * (keys reordered, a prompted model's own key) are decoded whole at the end.
 */
import { customInputArgument } from './parse-responses-tools.js';

const opening = ['{', JSON.stringify(customInputArgument), ':', '"'];

const simpleEscapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Where the string value starts; 'pending' while the text could still be that prefix. */
function matchOpening(text: string): number | 'pending' | 'mismatch' {
  let position = 0;
  for (const token of opening) {
    while (position < text.length && /\s/.test(text[position]!)) position++;
    if (position >= text.length) return 'pending';
    const available = text.slice(position, position + token.length);
    if (!token.startsWith(available)) return 'mismatch';
    if (available.length < token.length) return 'pending';
    position += token.length;
  }
  return position;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The final input: the `input` string, a lone string value, or the raw text when it isn't such JSON. */
export function unwrapCustomInput(argumentsText: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed === 'string') return parsed;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      const value = record[customInputArgument];
      if (typeof value === 'string') return value;
      const values = Object.values(record);
      if (values.length === 1 && typeof values[0] === 'string') return values[0];
      // `{}`: the upstream filled in empty arguments for a call that had none.
      if (values.length === 0) return '';
    }
  } catch {
    // not JSON: a prompted model wrote the raw text; it is the input as it stands
  }
  return argumentsText;
}

export class CustomInputDecoder {
  private buffer = '';
  /** Index in `buffer` of the next undecoded character of the string value; -1 before the opening. */
  private position = -1;
  private state: 'opening' | 'string' | 'closed' | 'whole' = 'opening';
  private emitted = '';

  /** The newly decoded characters after this fragment ('' when none are certain yet). */
  push(fragment: string): string {
    this.buffer += fragment;
    if (this.state === 'opening') {
      const match = matchOpening(this.buffer);
      if (match === 'pending') return '';
      if (match === 'mismatch') {
        this.state = 'whole';
        return '';
      }
      this.state = 'string';
      this.position = match;
    }
    if (this.state !== 'string') return '';
    const decoded = this.decode();
    this.emitted += decoded;
    return decoded;
  }

  /** The complete input and the part of it not yet emitted as a delta. */
  finish(argumentsText: string): { input: string; rest: string } {
    const input = unwrapCustomInput(argumentsText);
    // If the incremental view ever disagreed, the `done` event's full input corrects it.
    const rest = input.startsWith(this.emitted) ? input.slice(this.emitted.length) : '';
    return { input, rest };
  }

  private decode(): string {
    let out = '';
    const text = this.buffer;
    let position = this.position;
    while (position < text.length) {
      const character = text[position]!;
      if (character === '"') {
        this.state = 'closed';
        position++;
        break;
      }
      if (character !== '\\') {
        // A raw high surrogate at the very end waits for its low half, like an escaped one.
        if (position === text.length - 1 && isHighSurrogate(character.charCodeAt(0))) break;
        out += character;
        position++;
        continue;
      }
      const escape = text[position + 1];
      if (escape === undefined) break;
      if (escape !== 'u') {
        out += simpleEscapes[escape] ?? escape;
        position += 2;
        continue;
      }
      const hex = text.slice(position + 2, position + 6);
      if (hex.length < 4) break;
      const unit = Number.parseInt(hex, 16);
      if (isHighSurrogate(unit)) {
        // Hold a high surrogate until its low half arrives, so no delta ends in half a character.
        const next = text.slice(position + 6, position + 12);
        if (next.length < 6) break;
        const low = next.startsWith('\\u') ? Number.parseInt(next.slice(2), 16) : Number.NaN;
        if (isLowSurrogate(low)) {
          out += String.fromCharCode(unit, low);
          position += 12;
          continue;
        }
      }
      out += String.fromCharCode(unit);
      position += 6;
    }
    this.position = position;
    return out;
  }
}
