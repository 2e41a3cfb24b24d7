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

/** The tags that may end the body, without their `>`: a tag read so far as a prefix of one is held, never carried. */
const sectionOpenTag = `<${sectionTag}`;
const sectionCloseTag = `</${sectionTag}`;

class M3SectionScanner implements BodyScanner {
  /** The names of the elements open, `invoke` included (its `name="F"` attribute left out). */
  private readonly open: string[] = [];
  private readonly moreStep = createMoreStep();
  /**
   * A tag whose `>` has not come yet, from its `<`, already taken as body: one that can no longer be the
   * section's open or close (`<invoke name="…`, `</path`) is read on chunk by chunk instead of being held
   * and read again from its namespace token with every chunk. Never ends with a partial namespace token
   * (that is held), so a tag found too long for markup leaves nothing to read again behind it.
   */
  private carriedTag: string | undefined = undefined;

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    if (this.carriedTag !== undefined) {
      index = this.continueTag(input, position);
      if (index < 0) return moreFrom(this.moreStep, partialMarkerStart(input, position, m3Namespace));
    }
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
      if (tagEnd < 0 && input.length - tagStart <= tagLengthLimit) {
        if (mayEndSection(input, tagStart)) return moreFrom(this.moreStep, at);
        const kept = partialMarkerStart(input, tagStart, m3Namespace);
        this.carriedTag = input.slice(tagStart, kept);
        return moreFrom(this.moreStep, kept);
      }
      if (tagEnd < 0 || tagEnd - tagStart > tagLengthLimit) {
        index = tagStart;
        continue;
      }
      const closes = input.charCodeAt(tagStart + 1) === slash;
      const name = input.slice(tagStart + (closes ? 2 : 1), tagEnd);
      if (name === sectionTag) {
        if (closes && this.onlyInvokeOpen()) return { type: 'closed', bodyEnd: at, end: tagEnd + 1 };
        // A repeated section open: the body ends before it, as a tagged body does.
        if (!closes && this.open.length === 0) return { type: 'closed', bodyEnd: at, end: at };
      }
      this.applyTag(name, closes);
      index = tagEnd + 1;
    }
  }

  /** As `scan` reads text without a whole namespace token: all of it, up to a partial token at its end (then held). */
  takeLeading(text: string): number {
    if (text.indexOf(m3Namespace) >= 0) return -1;
    const carried = this.carriedTag;
    if (carried === undefined) return partialMarkerStart(text, 0, m3Namespace);
    // Inside a carried tag, as `continueTag` reads a chunk that neither ends it nor makes it too long.
    if (text.indexOf('>') >= 0 || carried.length + text.length > tagLengthLimit) return -1;
    const kept = partialMarkerStart(text, 0, m3Namespace);
    this.carriedTag = carried + text.slice(0, kept);
    return kept;
  }

  /**
   * Reads on the carried tag from `position`: where to scan on from once it ended (after its `>`, or at
   * `position` when it grew too long for markup, its namespace token then being text), or -1 while it
   * is still open (taken up to a partial namespace token at the end of `input`).
   */
  private continueTag(input: string, position: number): number {
    const carried = this.carriedTag as string;
    const tagEnd = input.indexOf('>', position);
    if (carried.length + (tagEnd < 0 ? input.length : tagEnd) - position > tagLengthLimit) {
      this.carriedTag = undefined;
      return position;
    }
    if (tagEnd < 0) {
      this.carriedTag = carried + input.slice(position, partialMarkerStart(input, position, m3Namespace));
      return -1;
    }
    this.carriedTag = undefined;
    const tag = carried + input.slice(position, tagEnd);
    const closes = tag.charCodeAt(1) === slash;
    this.applyTag(tag.slice(closes ? 2 : 1), closes);
    return tagEnd + 1;
  }

  /** A tag that does not end the body: an open pushes its element, a close pops to the element it names. */
  private applyTag(name: string, closes: boolean): void {
    if (!closes) {
      this.open.push(name.startsWith(`${invokeTag} `) || name.startsWith(`${invokeTag}=`) ? invokeTag : name);
      return;
    }
    const depth = this.open.lastIndexOf(name);
    // Closing an element also closes those opened inside it and left open (lenient, as the grammar is).
    if (depth >= 0) this.open.length = depth;
  }

  /** No argument element is open: only an invoke whose close is missing, if anything. */
  private onlyInvokeOpen(): boolean {
    return this.open.length === 0 || (this.open.length === 1 && this.open[0] === invokeTag);
  }
}

/** Whether the tag read so far (`input[tagStart..]`, no `>` in it) may still be the section's open or close. */
function mayEndSection(input: string, tagStart: number): boolean {
  const length = input.length - tagStart;
  return (
    (length <= sectionOpenTag.length && sectionOpenTag.startsWith(input.slice(tagStart))) ||
    (length <= sectionCloseTag.length && sectionCloseTag.startsWith(input.slice(tagStart)))
  );
}
