/** Reads JSON that may or may not be a call: bare JSON at a boundary of the reply, ```json fences and like wrappers. */
// It is held back only while it could still be a call to an offered tool; otherwise it is released
// as text, byte for byte.
import type { ParsedEvent } from '../../src/core/index.js';
import { decodeWithGrammars, type BodyGrammar } from './body-grammar.js';
import { callEvents, isOfferedCallBatch, stripEnvelopeNoise } from './call-events.js';
import { classifyCallPrefix } from './call-prefix-classifier.js';
import { CharCodeSet } from './char-code-set.js';
import { advanceJsonScan, advanceJsonScanOverChunk, JsonScanState } from './json-scan-state.js';
import type { TextPieces } from './text-pieces.js';
import type { ToolRoster } from './tool-roster.js';

export type CandidateScan =
  | { type: 'more'; keepFrom: number }
  /** Not a call: emit `text`, then parse on as text from `resume`. */
  | { type: 'release'; text: string; resume: { type: 'position'; position: number } | { type: 'input'; input: string } }
  | { type: 'calls'; end: number; events: ParsedEvent[] };

export type CandidateFinish = { type: 'events'; events: ParsedEvent[] } | { type: 'release'; text: string; replay: string };

/** Enough for `{"name": "<tool>"` or `[{"function": …`; past it, the candidate is held until it closes. */
const headLimit = 512;

/** `opener`: text already read that belongs to the candidate (a fence opener, or Llama's `; ` separator). */
export type CandidateSource =
  /** Bare JSON starting at the current position (its first character is `{` or `[`). */
  | { type: 'bare'; family: string; opener: string }
  /**
   * A wrapper whose opener was already read, closed by one of `closers`: a fence (```` ```json ```` to
   * ```` ``` ````) or a tag such as Hermes 2 Pro's `<response>` to `</response>`.
   */
  | { type: 'wrapped'; family: string; opener: string; closers: readonly string[] };

export class CandidateReader {
  /** The first `headLimit` characters of data, for the classifier. */
  private head = '';
  private callLike = false;
  private readonly state = new JsonScanState();
  /** Where a wrapper's closer may start, outside JSON strings. */
  private readonly closerStarts: CharCodeSet | undefined;

  constructor(
    private readonly source: CandidateSource,
    private readonly grammars: readonly BodyGrammar[],
    private readonly roster: ToolRoster,
    /** Data from earlier pushes (after the fence opener): the parser's one collector for call bodies, emptied here. */
    private readonly earlier: TextPieces,
  ) {
    earlier.clear();
    this.closerStarts = source.type === 'wrapped' ? CharCodeSet.ofFirstCharacters(source.closers) : undefined;
  }

  scan(input: string, position: number): CandidateScan {
    const boundary = this.findClose(input, position);
    const dataEnd = boundary.type === 'closed' ? boundary.bodyEnd : boundary.keepFrom;
    const fresh = input.slice(position, dataEnd);
    this.growHead(fresh);
    const verdict = this.classify();
    if (verdict !== undefined) return this.release(verdict, input, position);
    if (boundary.type === 'more') {
      this.earlier.add(fresh);
      return boundary;
    }
    const data = this.earlier.join() + fresh;
    const raw = this.opener() + data + input.slice(boundary.bodyEnd, boundary.end);
    const decoded = decodeWithGrammars(this.body(data), this.grammars, { roster: this.roster, framing: 'bare' });
    if (isOfferedCallBatch(decoded, this.roster))
      return { type: 'calls', end: boundary.end, events: callEvents(decoded, this.roster, raw) };
    return { type: 'release', text: raw, resume: { type: 'position', position: boundary.end } };
  }

  /**
   * Takes all of the next chunk (nothing held before it) when the candidate is already known to look
   * like a call and the chunk neither closes it nor holds a closer's first character outside a string: what
   * `scan` would do with it, without its steps. A fast path for the many small chunks of a long call.
   */
  takeWhole(text: string): boolean {
    if (!this.callLike) return false;
    const bare = this.source.type === 'bare';
    if (!advanceJsonScanOverChunk(this.state, text, this.closerStarts, bare)) return false;
    this.earlier.add(text);
    return true;
  }

  /** The reply ended first; `rest` is text the parser still held back. */
  finish(rest: string): CandidateFinish {
    this.growHead(rest);
    const data = this.earlier.join() + rest;
    const verdict = this.classify();
    if (verdict !== undefined) return { type: 'release', text: this.opener() + data.slice(0, verdict), replay: data.slice(verdict) };
    if (this.source.type === 'wrapped') {
      // An unclosed wrapper around a complete call is still that call.
      const decoded = decodeWithGrammars(this.body(data), this.grammars, { roster: this.roster, framing: 'bare' });
      if (isOfferedCallBatch(decoded, this.roster))
        return { type: 'events', events: callEvents(decoded, this.roster, this.opener() + data) };
    }
    if (!this.callLike) return { type: 'release', text: this.opener() + data, replay: '' };
    return {
      type: 'events',
      events: [{ type: 'tool-call-unparsed', format: this.source.family, text: this.opener() + data, reason: 'unclosed' }],
    };
  }

  private findClose(
    input: string,
    position: number,
  ): { type: 'more'; keepFrom: number } | { type: 'closed'; bodyEnd: number; end: number } {
    if (this.source.type === 'bare') {
      const index = advanceJsonScan(this.state, input, position, undefined, true);
      return this.state.completedValues > 0 ? { type: 'closed', bodyEnd: index, end: index } : { type: 'more', keepFrom: index };
    }
    const closers = this.source.closers;
    let index = position;
    for (;;) {
      index = advanceJsonScan(this.state, input, index, this.closerStarts, false);
      if (index >= input.length) return { type: 'more', keepFrom: index };
      const closer = closers.find((marker) => input.startsWith(marker, index));
      if (closer !== undefined) return { type: 'closed', bodyEnd: index, end: index + closer.length };
      const tail = input.slice(index);
      if (closers.some((marker) => marker.startsWith(tail))) return { type: 'more', keepFrom: index };
      this.state.step(input.charCodeAt(index));
      index++;
    }
  }

  /** The release point in data, once the head shows it cannot be a call; undefined while it still may be. */
  private classify(): number | undefined {
    if (this.callLike) return undefined;
    const verdict = classifyCallPrefix(this.head, this.roster);
    if (verdict.type === 'not-call') return verdict.end;
    // Undecided over the whole head means a very long first key or name: decide when it closes.
    if (verdict.type === 'call-like' || this.head.length >= headLimit) this.callLike = true;
    return undefined;
  }

  private release(end: number, input: string, position: number): CandidateScan {
    if (end >= this.earlier.length) {
      const resume = position + (end - this.earlier.length);
      return {
        type: 'release',
        text: this.opener() + this.earlier.join() + input.slice(position, resume),
        resume: { type: 'position', position: resume },
      };
    }
    const earlier = this.earlier.join();
    return {
      type: 'release',
      text: this.opener() + earlier.slice(0, end),
      resume: { type: 'input', input: earlier.slice(end) + input.slice(position) },
    };
  }

  private growHead(fresh: string): void {
    if (this.head.length < headLimit) this.head += fresh.slice(0, headLimit - this.head.length);
  }

  private opener(): string {
    return this.source.opener;
  }

  private body(data: string): string {
    return this.source.type === 'wrapped' ? stripEnvelopeNoise(data, '') : data;
  }
}
