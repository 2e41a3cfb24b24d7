/** Body scanning for `tagged` envelopes: up to an end marker, ignoring markers inside JSON strings and raw values. */
import { createMoreStep, isJsonOpenerCode, isSpaceCode, moreFrom, type BodyScanner, type BodyScanStep } from './body-scanner.js';
import { closeAtEndMarker } from './close-at-end-marker.js';
import { advanceJsonScan, advanceJsonScanOverChunk, JsonScanState } from './json-scan-state.js';
import { partialMarkerStart, type MarkerMatcher } from './marker-matcher.js';
import type { SpanMarkers, TaggedBodyLayout, Terminator } from './tagged-body-layout.js';

const greaterThan = 0x3e;

export class TaggedBodyScanner implements BodyScanner {
  /** `header` up to `headerEnd` if any, then `sniff` until the first significant character says whether the body is JSON. */
  private phase: 'header' | 'sniff' | 'json' | 'raw';
  private readonly state = new JsonScanState();
  /** The one `more` result, refilled by each scan (see `MoreStep`). */
  private readonly moreStep = createMoreStep();
  private readonly layout: TaggedBodyLayout;
  /** The raw value the scan is inside, if any; only its close (and nested open) markers count there. */
  private openSpan: SpanMarkers | undefined;
  /** How many values quoted inside the open one are still open. */
  private spanDepth = 0;
  /** After a `jsonValuesAfter` marker: `seek` its value's first bracket, then scan it as `json`. */
  private jsonValue: 'none' | 'seek' | 'json' = 'none';
  private readonly valueState = new JsonScanState();
  /** How many characters of a carryable open span's close the body taken so far ends with. */
  private spanCarry = 0;

  /**
   * `code`: scan as JSON or Python from the first character, never as raw text; `headerEnd`: the
   * character a header before the body ends with (see `TaggedBodyOptions`).
   */
  constructor(
    private readonly terminators: MarkerMatcher<Terminator>,
    layout?: TaggedBodyLayout,
    private readonly code = false,
    headerEnd?: string,
  ) {
    this.layout = layout ?? { rawMarkers: terminators };
    this.headerEndCode = headerEnd === undefined ? -1 : headerEnd.charCodeAt(0);
    this.phase = headerEnd === undefined ? 'sniff' : 'header';
  }

  private readonly headerEndCode: number;

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    if (this.phase === 'header') {
      const afterHeader = this.scanHeader(input, index);
      if (typeof afterHeader !== 'number') return afterHeader;
      index = afterHeader;
    }
    if (this.phase === 'sniff') {
      const sniffed = this.sniff(input, index);
      if (typeof sniffed !== 'number') return sniffed;
      index = sniffed;
    }
    return this.phase === 'json' ? this.scanJson(input, index) : this.scanRaw(input, index);
  }

  takeLeading(text: string): number {
    const whole = text.length;
    switch (this.phase) {
      case 'header':
      case 'sniff':
        return -1;
      case 'json':
        // What `scanJson` does when it meets no stop character outside a string: take it all. Markers
        // inside strings do not count, so a value quoting one (code, a file's text) streams this way too.
        return advanceJsonScanOverChunk(this.state, text, this.terminators.firstCodes, false) ? whole : -1;
      case 'raw': {
        if (this.jsonValue === 'seek') return this.takeSeekingChunk(text);
        if (this.jsonValue === 'json') return this.takeJsonValueChunk(text) ? whole : -1;
        const span = this.openSpan;
        // Raw text outside values, as `scanRaw` reads it while no marker is found (a marker changes the state).
        if (span === undefined) return this.layout.rawMarkers.unmarkedLength(text, 0);
        // As the scan reads a value while no close (or nested open) is found: up to a partial one at the end.
        if (span.nested) return span.matcher.unmarkedLength(text, 0);
        if (!span.carryable) return text.indexOf(span.close) < 0 ? partialMarkerStart(text, 0, span.close) : -1;
        const carried = this.spanCarry;
        const closeEnd = this.carryableCloseEnd(text, 0, span.close);
        if (closeEnd < 0) return whole;
        // The value closed inside the chunk: the rest is taken too when no marker starts in it.
        this.openSpan = undefined;
        const rest = this.layout.rawMarkers.unmarkedLength(text, closeEnd);
        if (rest >= 0) return rest;
        this.openSpan = span;
        this.spanCarry = carried;
        return -1;
      }
    }
  }

  /** Closes at the end marker at `index`, taking a trailing end marker after it along. */
  private closeAtEnd(input: string, index: number, marker: string): BodyScanStep {
    return closeAtEndMarker(input, index, marker, this.layout.trailingEnd, this.moreStep);
  }

  /**
   * Inside a `jsonValuesAfter` value: a chunk that does not close the value and may start no terminator
   * outside its strings is taken whole, as `scanJsonValue` would take it (what follows a close is raw text).
   */
  private takeJsonValueChunk(text: string): boolean {
    return advanceJsonScanOverChunk(this.valueState, text, this.terminators.firstCodes, true);
  }

  /**
   * Before a `jsonValuesAfter` value's first bracket (DeepSeek's `NAME` and fence after `<｜tool▁sep｜>`): a
   * chunk without a bracket is raw text to `scanJsonValue` too, up to a partial marker at its end.
   */
  private takeSeekingChunk(text: string): number {
    for (let index = 0; index < text.length; index++) if (isJsonOpenerCode(text.charCodeAt(index))) return -1;
    return this.layout.rawMarkers.unmarkedLength(text, 0);
  }

  /** Reads the header up to its end character; a terminator before it ends the body as in raw text. */
  private scanHeader(input: string, from: number): BodyScanStep | number {
    const stops = this.terminators.firstCodes;
    for (let index = from; index < input.length; index++) {
      const code = input.charCodeAt(index);
      if (code === this.headerEndCode) {
        this.phase = 'sniff';
        return index + 1;
      }
      if (!stops.has(code)) continue;
      const hit = this.terminators.matchAt(input, index);
      if (hit.type === 'partial') return moreFrom(this.moreStep, index);
      if (hit.type === 'found')
        return hit.value === 'end' ? this.closeAtEnd(input, index, hit.marker) : { type: 'closed', bodyEnd: index, end: index };
    }
    return moreFrom(this.moreStep, input.length);
  }

  /** Skips whitespace, stray `>` and doubled start markers (`<tool_call>>`, `<tool_call><tool_call>`). */
  private sniff(input: string, from: number): BodyScanStep | number {
    let index = from;
    for (;;) {
      while (index < input.length && (isSpaceCode(input.charCodeAt(index)) || input.charCodeAt(index) === greaterThan)) index++;
      if (index >= input.length) return moreFrom(this.moreStep, index);
      const hit = this.terminators.matchAt(input, index);
      if (hit.type === 'partial') return moreFrom(this.moreStep, index);
      if (hit.type === 'found' && hit.value === 'restart') {
        index += hit.marker.length;
        continue;
      }
      this.phase = this.code || isJsonOpenerCode(input.charCodeAt(index)) ? 'json' : 'raw';
      return index;
    }
  }

  private scanJson(input: string, from: number): BodyScanStep {
    const stops = this.terminators.firstCodes;
    let index = from;
    for (;;) {
      index = advanceJsonScan(this.state, input, index, stops, false);
      if (index >= input.length) return moreFrom(this.moreStep, input.length);
      const hit = this.terminators.matchAt(input, index);
      if (hit.type === 'partial') return moreFrom(this.moreStep, index);
      if (hit.type === 'found') {
        if (hit.value === 'end') return this.closeAtEnd(input, index, hit.marker);
        if (this.state.depth === 0 && this.state.completedValues > 0) return { type: 'closed', bodyEnd: index, end: index };
      }
      this.state.step(input.charCodeAt(index));
      index++;
    }
  }

  private scanRaw(input: string, from: number): BodyScanStep {
    let index = from;
    for (;;) {
      if (this.jsonValue !== 'none') {
        const step = this.scanJsonValue(input, index);
        if (typeof step !== 'number') return step;
        index = step;
        continue;
      }
      const span = this.openSpan;
      if (span !== undefined && span.carryable) {
        const closeEnd = this.carryableCloseEnd(input, index, span.close);
        if (closeEnd < 0) return moreFrom(this.moreStep, input.length);
        this.openSpan = undefined;
        index = closeEnd;
        continue;
      }
      if (span !== undefined && !span.nested) {
        const closeAt = input.indexOf(span.close, index);
        if (closeAt < 0) return moreFrom(this.moreStep, partialMarkerStart(input, index, span.close));
        this.openSpan = undefined;
        index = closeAt + span.close.length;
        continue;
      }
      if (span !== undefined) {
        const inner = span.matcher.find(input, index);
        if (inner.type === 'none') return moreFrom(this.moreStep, input.length);
        if (inner.type === 'partial') return moreFrom(this.moreStep, inner.index);
        if (inner.value === 'nested') this.spanDepth++;
        else if (this.spanDepth > 0) this.spanDepth--;
        else this.openSpan = undefined;
        index = inner.index + inner.marker.length;
        continue;
      }
      const hit = this.layout.rawMarkers.find(input, index);
      switch (hit.type) {
        case 'none':
          return moreFrom(this.moreStep, input.length);
        case 'partial':
          return moreFrom(this.moreStep, hit.index);
        case 'found':
          if (typeof hit.value !== 'string' && 'jsonValue' in hit.value) {
            this.jsonValue = 'seek';
            index = hit.index + hit.marker.length;
            continue;
          }
          if (typeof hit.value !== 'string') {
            // A value opens: end markers inside it are text.
            this.openSpan = hit.value;
            index = hit.index + hit.marker.length;
            continue;
          }
          return hit.value === 'end'
            ? this.closeAtEnd(input, hit.index, hit.marker)
            : { type: 'closed', bodyEnd: hit.index, end: hit.index };
      }
    }
  }

  /**
   * After a `jsonValuesAfter` marker: up to the value's first bracket, markers count as in raw text (the
   * value may be missing); from it, only a terminator outside its strings does, until the value closes.
   * Returns where raw scanning goes on, or the step to return.
   */
  private scanJsonValue(input: string, from: number): BodyScanStep | number {
    let index = from;
    if (this.jsonValue === 'seek') {
      while (index < input.length && !isJsonOpenerCode(input.charCodeAt(index))) index++;
      const hit = this.layout.rawMarkers.find(input, from);
      if (hit.type === 'found' && hit.index < index) {
        // A marker before any value: the raw scan reads it.
        this.jsonValue = 'none';
        return from;
      }
      // What may be a marker before any value is read again with the next chunk, still seeking: as a
      // whole reply would, where the text may turn out not to be a marker at all.
      if (hit.type === 'partial' && hit.index < index) return moreFrom(this.moreStep, hit.index);
      if (index >= input.length) return moreFrom(this.moreStep, input.length);
      const state = this.valueState;
      state.depth = 0;
      state.quote = 0;
      state.escaped = false;
      state.completedValues = 0;
      this.jsonValue = 'json';
    }
    const state = this.valueState;
    const stops = this.terminators.firstCodes;
    for (;;) {
      index = advanceJsonScan(state, input, index, stops, true);
      if (state.depth === 0 && state.completedValues > 0) {
        this.jsonValue = 'none';
        return index;
      }
      if (index >= input.length) return moreFrom(this.moreStep, input.length);
      const hit = this.terminators.matchAt(input, index);
      if (hit.type === 'partial') return moreFrom(this.moreStep, index);
      if (hit.type === 'found' && hit.value === 'end') return this.closeAtEnd(input, index, hit.marker);
      state.step(input.charCodeAt(index));
      index++;
    }
  }

  /**
   * Inside a carryable span from `from`: the index just after its close in `text`, or -1 when the text
   * ends inside the value, `spanCarry` then counting the start of the close it ends with.
   */
  private carryableCloseEnd(text: string, from: number, close: string): number {
    const carried = this.spanCarry;
    this.spanCarry = 0;
    if (carried > 0) {
      let matched = 0;
      while (
        from + matched < text.length &&
        carried + matched < close.length &&
        text.charCodeAt(from + matched) === close.charCodeAt(carried + matched)
      )
        matched++;
      if (carried + matched === close.length) return from + matched;
      if (from + matched === text.length) {
        this.spanCarry = carried + matched;
        return -1;
      }
      // Not the close after all: what was carried is value text, and a close can only begin later.
    }
    const closeAt = text.indexOf(close, from);
    if (closeAt >= 0) return closeAt + close.length;
    this.spanCarry = text.length - partialMarkerStart(text, from, close);
    return -1;
  }
}
