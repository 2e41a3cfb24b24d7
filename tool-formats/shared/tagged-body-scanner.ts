/** Body scanning for `tagged` envelopes: up to an end marker, ignoring markers inside JSON strings. */
import { isJsonOpenerCode, isSpaceCode, type BodyScanner, type BodyScanStep } from './body-scanner.js';
import { advanceJsonScan, JsonScanState } from './json-scan-state.js';
import type { MarkerMatcher } from './marker-matcher.js';

/** `end` closes the body; `restart` (the envelope's own start marker) may close it implicitly. */
export type Terminator = 'end' | 'restart';

const greaterThan = 0x3e;

export class TaggedBodyScanner implements BodyScanner {
  /** `sniff` until the first significant character says whether the body is JSON. */
  private phase: 'sniff' | 'json' | 'raw' = 'sniff';
  private readonly state = new JsonScanState();

  constructor(private readonly terminators: MarkerMatcher<Terminator>) {}

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    if (this.phase === 'sniff') {
      const sniffed = this.sniff(input, index);
      if (typeof sniffed !== 'number') return sniffed;
      index = sniffed;
    }
    return this.phase === 'json' ? this.scanJson(input, index) : this.scanRaw(input, index);
  }

  /** Skips whitespace, stray `>` and doubled start markers (`<tool_call>>`, `<tool_call><tool_call>`). */
  private sniff(input: string, from: number): BodyScanStep | number {
    let index = from;
    for (;;) {
      while (index < input.length && (isSpaceCode(input.charCodeAt(index)) || input.charCodeAt(index) === greaterThan)) index++;
      if (index >= input.length) return { type: 'more', keepFrom: index };
      const hit = this.terminators.matchAt(input, index);
      if (hit.type === 'partial') return { type: 'more', keepFrom: index };
      if (hit.type === 'found' && hit.value === 'restart') {
        index += hit.marker.length;
        continue;
      }
      this.phase = isJsonOpenerCode(input.charCodeAt(index)) ? 'json' : 'raw';
      return index;
    }
  }

  private scanJson(input: string, from: number): BodyScanStep {
    const stops = this.terminators.firstCodes;
    let index = from;
    for (;;) {
      index = advanceJsonScan(this.state, input, index, stops, false);
      if (index >= input.length) return { type: 'more', keepFrom: input.length };
      const hit = this.terminators.matchAt(input, index);
      if (hit.type === 'partial') return { type: 'more', keepFrom: index };
      if (hit.type === 'found') {
        if (hit.value === 'end') return { type: 'closed', bodyEnd: index, end: index + hit.marker.length };
        if (this.state.depth === 0 && this.state.completedValues > 0) return { type: 'closed', bodyEnd: index, end: index };
      }
      this.state.step(input.charCodeAt(index));
      index++;
    }
  }

  private scanRaw(input: string, from: number): BodyScanStep {
    const hit = this.terminators.find(input, from);
    switch (hit.type) {
      case 'none':
        return { type: 'more', keepFrom: input.length };
      case 'partial':
        return { type: 'more', keepFrom: hit.index };
      case 'found':
        return { type: 'closed', bodyEnd: hit.index, end: hit.value === 'end' ? hit.index + hit.marker.length : hit.index };
    }
  }
}
