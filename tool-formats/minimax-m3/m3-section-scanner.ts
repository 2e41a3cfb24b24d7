/** Finds the end of a MiniMax-M3 section outside argument values, tracking the namespaced elements that are open. */
// M2's values are raw spans between fixed tags (`valueSpans`); M3's are elements named after their
// argument, so no fixed span fits. The scanner keeps the stack of open elements instead: the section's
// close ends the body only where no argument element is open, so a value quoting M3's own markup (code
// or docs about MiniMax) stays value text, as it does in llama.cpp's grammar-driven parser. A close tag
// names the element it closes; one that matches no open element is value text.
import { createMoreStep, moreFrom, type BodyScanner, type BodyScanStep } from '../shared/body-scanner.js';
import type { Envelope } from '../shared/envelope.js';
import { partialMarkerStart } from '../shared/marker-matcher.js';
import { m3Namespace } from './m3-invoke-grammar.js';

const lessThan = 0x3c;
const slash = 0x2f;
/** A tag longer than this is not markup (a `<` in prose after the token); bounds what is held back. */
const tagLengthLimit = 256;
const sectionTag = 'tool_call';
const invokeTag = 'invoke';

export function createM3SectionScanner(_envelope: Envelope): BodyScanner {
  return new M3SectionScanner();
}

class M3SectionScanner implements BodyScanner {
  /** The names of the elements open, `invoke` included (its `name="F"` attribute left out). */
  private readonly open: string[] = [];
  private readonly moreStep = createMoreStep();

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    for (;;) {
      const at = input.indexOf(m3Namespace, index);
      if (at < 0) return moreFrom(this.moreStep, partialMarkerStart(input, index, m3Namespace));
      const tagStart = at + m3Namespace.length;
      if (tagStart >= input.length) return moreFrom(this.moreStep, at);
      if (input.charCodeAt(tagStart) !== lessThan) {
        index = tagStart;
        continue;
      }
      const tagEnd = input.indexOf('>', tagStart);
      if (tagEnd < 0 && input.length - tagStart <= tagLengthLimit) return moreFrom(this.moreStep, at);
      if (tagEnd < 0 || tagEnd - tagStart > tagLengthLimit) {
        index = tagStart;
        continue;
      }
      const closes = input.charCodeAt(tagStart + 1) === slash;
      const name = input.slice(tagStart + (closes ? 2 : 1), tagEnd);
      if (closes) {
        if (name === sectionTag && this.onlyInvokeOpen()) return { type: 'closed', bodyEnd: at, end: tagEnd + 1 };
        const depth = this.open.lastIndexOf(name);
        // Closing an element also closes those opened inside it and left open (lenient, as the grammar is).
        if (depth >= 0) this.open.length = depth;
      } else if (name === sectionTag && this.open.length === 0) {
        // A repeated section open: the body ends before it, as a tagged body does.
        return { type: 'closed', bodyEnd: at, end: at };
      } else {
        this.open.push(name.startsWith(`${invokeTag} `) || name.startsWith(`${invokeTag}=`) ? invokeTag : name);
      }
      index = tagEnd + 1;
    }
  }

  takeLeading(text: string): number {
    return text.indexOf(m3Namespace) < 0 && partialMarkerStart(text, 0, m3Namespace) === text.length ? text.length : -1;
  }

  /** No argument element is open: only an invoke whose close is missing, if anything. */
  private onlyInvokeOpen(): boolean {
    return this.open.length === 0 || (this.open.length === 1 && this.open[0] === invokeTag);
  }
}
