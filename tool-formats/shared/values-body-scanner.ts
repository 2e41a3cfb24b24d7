/** Body scanning for `values` envelopes: the body ends right after its JSON values (`{…}; {…}`). */
import { createMoreStep, isJsonOpenerCode, isSpaceCode, moreFrom, type BodyScanner, type BodyScanStep } from './body-scanner.js';
import { advanceJsonScan, advanceJsonScanOverChunk, JsonScanState } from './json-scan-state.js';
import type { MarkerMatcher } from './marker-matcher.js';
import type { Terminator } from './tagged-body-layout.js';

export class ValuesBodyScanner implements BodyScanner {
  private phase: 'sniff' | 'value' | 'after' | 'raw' = 'sniff';
  private readonly state = new JsonScanState();
  /** The one `more` result, refilled by each scan (see `MoreStep`). */
  private readonly moreStep = createMoreStep();
  private readonly separatorCode: number;

  /** `separator` is one character, e.g. `;`. Only `end` terminators are used here. */
  constructor(
    private readonly terminators: MarkerMatcher<Terminator>,
    separator: string,
  ) {
    this.separatorCode = separator.charCodeAt(0);
  }

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    for (;;) {
      switch (this.phase) {
        case 'sniff': {
          while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
          if (index >= input.length) return moreFrom(this.moreStep, index);
          const ended = this.endAt(input, index);
          if (ended !== undefined) return ended;
          this.phase = isJsonOpenerCode(input.charCodeAt(index)) ? 'value' : 'raw';
          break;
        }
        case 'value': {
          const closedBefore = this.state.completedValues;
          index = advanceJsonScan(this.state, input, index, this.terminators.firstCodes, true);
          if (this.state.completedValues > closedBefore) {
            this.phase = 'after';
            break;
          }
          if (index >= input.length) return moreFrom(this.moreStep, index);
          const ended = this.endAt(input, index);
          if (ended !== undefined) return ended;
          this.state.step(input.charCodeAt(index));
          index++;
          break;
        }
        case 'after':
          return this.afterValue(input, index);
        case 'raw': {
          const hit = this.terminators.find(input, index);
          if (hit.type === 'none') return moreFrom(this.moreStep, input.length);
          if (hit.type === 'partial') return moreFrom(this.moreStep, hit.index);
          if (hit.value === 'end') return { type: 'closed', bodyEnd: hit.index, end: hit.index + hit.marker.length };
          index = hit.index + 1;
          break;
        }
      }
    }
  }

  /** Inside a value, a chunk that neither closes it nor may start a terminator is taken whole, as `scan` would take it. */
  takeLeading(text: string): number {
    return this.phase === 'value' && advanceJsonScanOverChunk(this.state, text, this.terminators.firstCodes, true) ? text.length : -1;
  }

  /** After a value: a separator and another value continue the body; an end marker closes it; anything else ends it here. */
  private afterValue(input: string, valueEnd: number): BodyScanStep {
    let index = valueEnd;
    while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
    if (index >= input.length) return moreFrom(this.moreStep, valueEnd);
    const ended = this.endAt(input, index);
    if (ended !== undefined) return ended.type === 'more' ? moreFrom(this.moreStep, valueEnd) : ended;
    if (input.charCodeAt(index) === this.separatorCode) {
      let next = index + 1;
      while (next < input.length && isSpaceCode(input.charCodeAt(next))) next++;
      if (next >= input.length) return moreFrom(this.moreStep, valueEnd);
      if (isJsonOpenerCode(input.charCodeAt(next))) {
        this.phase = 'value';
        return this.scan(input, next);
      }
    }
    return { type: 'closed', bodyEnd: valueEnd, end: valueEnd };
  }

  private endAt(input: string, index: number): BodyScanStep | undefined {
    const hit = this.terminators.matchAt(input, index);
    if (hit.type === 'partial') return moreFrom(this.moreStep, index);
    if (hit.type === 'found' && hit.value === 'end') return { type: 'closed', bodyEnd: index, end: index + hit.marker.length };
    return undefined;
  }
}
