/**
 * What of a tool call's argument text a `tool_use` block may stream. Anthropic's `input` is an object, so
 * text that does not open one (`[1,2]`, `"ls"`: an upstream's native call, passed on as received) is
 * never streamed: the client accumulates nothing and reads `{}`, the very input the non-streamed Message
 * holds, and both carry the same warning. The decision needs only the first character that is not
 * whitespace, so arguments still stream as they arrive.
 */
import type { Warning } from '../../src/core/warning.js';

export class ToolInputGate {
  private opens: 'object' | 'other' | undefined;
  /** Leading whitespace, held until the first other character says whether the text opens an object. */
  private heldWhitespace = '';

  /** The part of `text` (the next piece of the call's arguments) to stream now. */
  pass(text: string): string {
    if (this.opens === 'object') return text;
    if (this.opens === 'other') return '';
    const first = text.search(/\S/);
    if (first === -1) {
      this.heldWhitespace += text;
      return '';
    }
    this.opens = text[first] === '{' ? 'object' : 'other';
    const passed = this.opens === 'object' ? this.heldWhitespace + text : '';
    this.heldWhitespace = '';
    return passed;
  }

  /**
   * The warning for a call whose whole argument text (`received`) is JSON but not an object. Text that is
   * not JSON at all is not reported here: the pipeline's argument repair (src/pipeline/repair-native-arguments.ts)
   * reported it already, for every API alike, and a second warning would say the same thing twice.
   */
  warning(received: string, call: { id: string; name: string }): Warning | undefined {
    if (this.opens !== 'other') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(received);
    } catch {
      return undefined;
    }
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return {
      code: 'invalid-tool-arguments',
      message: `The arguments of tool call '${call.id}' (${call.name}) are ${kind}, not a JSON object; its input is {}.`,
    };
  }
}
