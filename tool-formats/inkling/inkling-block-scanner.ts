/** Finds the end of an Inkling tool block after `<|message_model|>`: the echoed name, the invoke token, then JSON up to the block's end. */
// TML re-opens `<|message_model|>` before every content block, so the marker also opens text and
// thinking blocks: anything but a bare name followed by `<|content_invoke_tool_json|>` is declined, the
// marker dropped as framing and the text read as usual.
import { isSpaceCode, type BodyScanner, type BodyScanStep } from '../shared/body-scanner.js';
import { MarkerMatcher } from '../shared/marker-matcher.js';

export const inklingInvokeToken = '<|content_invoke_tool_json|>';
export const inklingEndTokens = ['<|end_message|>', '<|content_model_end_sampling|>'];
const longestName = 128;
const lessThan = 0x3c;

/** The scanner factory for the custom body: the end matcher is built once, not per block. */
export function inklingBlockScanning(): () => BodyScanner {
  // One pass finds the nearest end token (searching each token on its own would read to the reply's end
  // for the one that is not there, once per block).
  const ends = new MarkerMatcher(inklingEndTokens.map((marker) => ({ marker, value: 'end' as const })));
  return () => new InklingBlockScanner(ends);
}

class InklingBlockScanner implements BodyScanner {
  private inCall = false;

  constructor(private readonly ends: MarkerMatcher<'end'>) {}

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
    const end = this.ends.find(input, index);
    switch (end.type) {
      case 'found':
        return { type: 'closed', bodyEnd: end.index, end: end.index + end.marker.length };
      case 'partial':
        return { type: 'more', keepFrom: end.index };
      case 'none':
        return { type: 'more', keepFrom: input.length };
    }
  }

  /** In the call's JSON, a chunk with no end token is body, up to a partial one at its end (see `BodyScanner.takeLeading`). */
  takeLeading(text: string): number {
    if (!this.inCall) return -1;
    const end = this.ends.find(text, 0);
    return end.type === 'none' ? text.length : end.type === 'partial' ? end.index : -1;
  }

  undecidedAtEnd(): boolean {
    return !this.inCall;
  }
}
