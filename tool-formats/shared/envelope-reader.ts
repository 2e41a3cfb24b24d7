/** Collects one explicit envelope's body as it streams in, and turns it into call events when it ends. */
import type { ParsedEvent } from '../../src/core/index.js';
import { decodeWithGrammars, type BodyFraming, type DecodedBody } from './body-grammar.js';
import type { BodyScanner } from './body-scanner.js';
import { callEvents, stripEnvelopeNoise } from './call-events.js';
import type { EnvelopeEntry } from './envelope-entry.js';
import type { MarkerMatcher } from './marker-matcher.js';
import type { TextPieces } from './text-pieces.js';
import type { ToolRoster } from './tool-roster.js';

export type EnvelopeScan =
  | { type: 'more'; keepFrom: number }
  | { type: 'closed'; end: number; events: ParsedEvent[] }
  /** No envelope after all: `text` (the marker, or nothing) is text, and parsing goes on at `end`. */
  | { type: 'declined'; end: number; text: string };

/** At the end of the reply: the events, and text to parse again when the envelope turned out to end early. */
export type EnvelopeFinish = { events: ParsedEvent[]; replay?: string };

export class EnvelopeReader {
  private readonly scanner: BodyScanner;

  constructor(
    private readonly entry: EnvelopeEntry,
    /** The start marker as written. */
    private readonly opener: string,
    private readonly roster: ToolRoster,
    /**
     * Body text so far, kept as pieces and joined once, so a long body costs linear time: the parser's
     * one collector for call bodies, emptied here (the reader before this one is done with it).
     */
    private readonly parts: TextPieces,
  ) {
    this.scanner = entry.createScanner();
    parts.clear();
  }

  /** The markers the scanner may hold a partial of (see `EnvelopeEntry.heldMarkers`). */
  get heldMarkers(): MarkerMatcher<true> {
    return this.entry.heldMarkers;
  }

  /** Takes what the scanner can of the next input as body (see `BodyScanner.takeLeading`): how much, or -1. */
  takeLeading(text: string): number {
    const taken = this.scanner.takeLeading?.(text) ?? -1;
    if (taken > 0) this.parts.add(taken === text.length ? text : text.slice(0, taken));
    return taken;
  }

  scan(input: string, position: number): EnvelopeScan {
    const step = this.scanner.scan(input, position);
    if (step.type === 'more') {
      if (step.keepFrom > position) this.parts.add(input.slice(position, step.keepFrom));
      return step;
    }
    if (step.type === 'declined') return { type: 'declined', end: step.resume, text: step.markerIsText ? this.opener : '' };
    this.parts.add(input.slice(position, step.bodyEnd));
    const body = this.parts.join();
    const raw = this.opener + body + input.slice(step.bodyEnd, step.end);
    const events = callEvents(this.decode(body, 'closed'), this.roster, raw);
    // Without a written marker (the reply starts inside the envelope) nothing says the text is markup:
    // like bare JSON, it is a call only when it calls an offered tool.
    const markerWritten = this.opener !== '' || body.startsWith(this.entry.start);
    if (!markerWritten && !events.some((event) => event.type === 'tool-call')) return { type: 'declined', end: step.end, text: raw };
    return { type: 'closed', end: step.end, events };
  }

  /** The reply ended inside the envelope; `rest` is text the parser still held back. */
  finish(rest: string): EnvelopeFinish {
    if (this.scanner.undecidedAtEnd?.() === true) return { events: [{ type: 'text', text: this.opener }], replay: rest };
    const closer = this.heldEndMarker(rest);
    if (closer !== undefined) {
      const body = this.parts.join();
      const events = callEvents(this.decode(body, 'closed'), this.roster, this.opener + body + closer);
      const after = rest.slice(closer.length);
      return after === '' ? { events } : { events, replay: after };
    }
    const body = this.parts.join() + rest;
    const raw = this.opener + body;
    const decoded = this.decode(body, 'unclosed');
    if (hasCall(decoded)) return { events: callEvents(decoded, this.roster, raw) };
    if (this.entry.endsAtReplyEnd && decoded.type === 'invalid' && decoded.incomplete !== true) {
      return { events: callEvents(decoded, this.roster, raw) };
    }
    const recovered = this.recoverHiddenEnd(body);
    if (recovered !== undefined) return recovered;
    return { events: [{ type: 'tool-call-unparsed', format: this.entry.family, text: raw, reason: 'unclosed' }] };
  }

  /**
   * An end marker the scanner held back because a longer marker could still have begun there (the
   * fence closer ``` before ```tool_code): with the reply over, it closes the envelope.
   */
  private heldEndMarker(rest: string): string | undefined {
    let longest: string | undefined;
    for (const marker of this.entry.end)
      if (rest.startsWith(marker) && (longest === undefined || marker.length > longest.length)) longest = marker;
    return longest;
  }

  /**
   * An end marker the scanner skipped because it sat inside what looked like a string (an unbalanced
   * quote). If the text before it is a readable call, the envelope really ended there.
   */
  private recoverHiddenEnd(body: string): EnvelopeFinish | undefined {
    let earliest: { index: number; marker: string } | undefined;
    for (const marker of this.entry.end) {
      const index = body.indexOf(marker);
      if (index >= 0 && (earliest === undefined || index < earliest.index)) earliest = { index, marker };
    }
    if (earliest === undefined) return undefined;
    const closedAt = earliest.index + earliest.marker.length;
    const events = callEvents(this.decode(body.slice(0, earliest.index), 'closed'), this.roster, this.opener + body.slice(0, closedAt));
    if (!events.some((event) => event.type === 'tool-call')) return undefined;
    return { events, replay: body.slice(closedAt) };
  }

  private decode(body: string, framing: BodyFraming): DecodedBody {
    return decodeWithGrammars(stripEnvelopeNoise(body, this.entry.start), this.entry.grammars, { roster: this.roster, framing });
  }
}

function hasCall(decoded: DecodedBody): boolean {
  return decoded.type === 'calls' && decoded.calls.some((call) => call.type === 'call');
}
