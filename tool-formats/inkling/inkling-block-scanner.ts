/** Finds the end of an Inkling tool block after `<|message_model|>`: the echoed name, the invoke token, then JSON up to the block's end. */
// TML re-opens `<|message_model|>` before every content block, so the marker also opens text and
// thinking blocks: anything but a bare name followed by `<|content_invoke_tool_json|>` is declined, the
// marker dropped as framing and the text read as usual.
import { isSpaceCode, type BodyScanner, type BodyScanStep } from '../shared/body-scanner.js';

export const inklingInvokeToken = '<|content_invoke_tool_json|>';
export const inklingEndTokens = ['<|end_message|>', '<|content_model_end_sampling|>'];
const longestName = 128;
const lessThan = 0x3c;
const longestEnd = Math.max(...inklingEndTokens.map((token) => token.length));

export function createInklingBlockScanner(): BodyScanner {
  return new InklingBlockScanner();
}

class InklingBlockScanner implements BodyScanner {
  private inCall = false;

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    if (!this.inCall) {
      const declined: BodyScanStep = { type: 'declined', resume: position, markerIsText: false };
      while (index < input.length && input.charCodeAt(index) !== lessThan) {
        if (isSpaceCode(input.charCodeAt(index)) || index - position >= longestName) return declined;
        index++;
      }
      const rest = input.slice(index, index + inklingInvokeToken.length);
      if (!inklingInvokeToken.startsWith(rest)) return declined;
      if (rest.length < inklingInvokeToken.length) return { type: 'more', keepFrom: position };
      this.inCall = true;
      index += inklingInvokeToken.length;
    }
    let end: { at: number; token: string } | undefined;
    for (const token of inklingEndTokens) {
      const at = input.indexOf(token, index);
      if (at >= 0 && (end === undefined || at < end.at)) end = { at, token };
    }
    if (end !== undefined) return { type: 'closed', bodyEnd: end.at, end: end.at + end.token.length };
    return { type: 'more', keepFrom: Math.max(index, input.length - longestEnd + 1) };
  }

  undecidedAtEnd(): boolean {
    return !this.inCall;
  }
}
