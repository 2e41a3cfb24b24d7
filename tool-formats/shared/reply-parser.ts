/** The one streaming parser behind every family: a synchronous state machine over a model's reply. */
// It walks text, reasoning, call envelopes and bare-JSON candidates. The same code reads a whole reply
// (one push) and a stream (many pushes), and only a possible partial marker is ever held back.
import { assertNever, type ParsedEvent, type ParserOptions, type ToolCallParser } from '../../src/core/index.js';
import { isJsonOpenerCode, isSpaceCode } from './body-scanner.js';
import { CandidateReader } from './candidate-reader.js';
import type { ReplySyntax, TextMarker } from './envelope-catalogue.js';
import { EnvelopeReader } from './envelope-reader.js';
import { FenceFrame, fenceCloser } from './fence-frame.js';
import type { MarkerCursor, MarkerHit, MarkerMatcher } from './marker-matcher.js';
import { noEvents, ParsedEventBuffer } from './parsed-event-buffer.js';
import { ReasoningReader } from './reasoning-reader.js';
import { isPlainLineStart, plainTextEnd, semicolonCode } from './plain-text-run.js';
import { TextPieces } from './text-pieces.js';
import { orphanCloseWarning, unclosedReasoningWarning } from './reasoning-warnings.js';
import type { ToolRoster } from './tool-roster.js';

const newlineCode = 0x0a;

type Mode =
  /** The start of the reply, or just after reasoning or a call: bare JSON may be a call here. */
  | { readonly type: 'boundary'; readonly afterCall: boolean }
  | { readonly type: 'text' }
  | { type: 'reasoning'; reader: ReasoningReader }
  | { type: 'envelope'; reader: EnvelopeReader }
  | { type: 'candidate'; reader: CandidateReader }
  /** After a fence opener (what follows decides whether it wraps calls), or after the calls inside one. */
  | { readonly type: 'fence' };

// The modes without a reader are shared constants: entering one happens at every line and call.
const textMode: Mode = { type: 'text' };
const boundaryMode: Mode = { type: 'boundary', afterCall: false };
const afterCallMode: Mode = { type: 'boundary', afterCall: true };
const fenceMode: Mode = { type: 'fence' };

/**
 * What a step did, as a number so that the step per chunk allocates nothing: the position to go on
 * from (advance), or one of these two.
 */
type Step = number;
/** Keep the rest of the input for the next push (`pending` holds it). */
const held = -1;
/** Go on with a rebuilt input (`switchedInput`: text released by a candidate, to be read again as text). */
const switched = -2;

export function createReplyParser(syntax: ReplySyntax, roster: ToolRoster, options: ParserOptions = {}): ToolCallParser {
  return new ReplyParser(syntax, roster, options);
}

class ReplyParser implements ToolCallParser {
  private mode: Mode;
  private pending = '';
  /**
   * Set when `pending` is all a partial marker of `partialMatcher` (a text marker held in text or at a
   * boundary, or a marker a body scanner held): where the match stands, so that the next chunks are
   * walked on from there (see `push`).
   */
  private partialMarker: MarkerCursor | undefined = undefined;
  private partialMatcher: MarkerMatcher<unknown>;
  /** The input a `switched` step goes on with. */
  private switchedInput = '';
  private finished = false;
  private orphanCloseReported = false;
  /** The fence the current call (or the calls just read) may be wrapped in; see fence-frame.ts. */
  private fence: FenceFrame | undefined = undefined;
  /** The mode after the fence's calls once it is settled (after bare JSON, Llama's `;` may follow). */
  private afterFence: Mode = boundaryMode;
  /** Nothing of the reply has been read yet: the family's reply-start markers may match. */
  private atReplyStart: boolean;
  private readonly events = new ParsedEventBuffer();
  /** The text of the call body being read, handed to each envelope or candidate reader in turn (see TextPieces.clear). */
  private readonly bodyPieces = new TextPieces();
  /** A new line is a boundary again: a bare call (`{"name": …}`, `[f(x=1)]`) may follow text on its own line. */
  private readonly textStopCode: number;

  constructor(
    private readonly syntax: ReplySyntax,
    private readonly roster: ToolRoster,
    options: ParserOptions,
  ) {
    this.textStopCode = syntax.bareGrammars.length > 0 ? newlineCode : -1;
    this.partialMatcher = syntax.textMarkers;
    this.atReplyStart = options.startsInReasoning !== true && syntax.replyStartMarkers !== undefined;
    const inside = syntax.replyStartsInside;
    this.mode =
      options.startsInReasoning === true
        ? { type: 'reasoning', reader: new ReasoningReader(syntax.reasoning, { type: 'template' }) }
        : inside !== undefined
          ? { type: 'envelope', reader: new EnvelopeReader(inside, '', roster, this.bodyPieces) }
          : boundaryMode;
  }

  push(chunk: string): readonly ParsedEvent[] {
    if (this.finished) throw new Error('push() after finish()');
    let text = chunk;
    if (this.partialMarker !== undefined) {
      // A long marker (`<｜tool▁calls▁begin｜>`) arrives over several chunks: each one is walked on from
      // where the match stood, and the held text is read again only once the match is decided. In text,
      // reading it again earlier would give the same answer: the text still held, nothing emitted. In a
      // call body nothing streams before the call closes, and a scanner reads a body alike however it is
      // chunked, so holding a marker's chunks together changes nothing either.
      const cursor = this.partialMatcher.continuePartial(this.partialMarker, text);
      if (cursor !== undefined) {
        this.partialMarker = cursor;
        this.pending += text;
        return noEvents;
      }
      // Decided: the held text is read with this chunk as one input, by the fast paths too (`<arg_key>`
      // in a body, which `<arg_value>` held the start of, is body text like any other).
      text = this.pending + text;
      this.pending = '';
      this.partialMarker = undefined;
    }
    if (this.pending === '' || this.mode.type === 'reasoning') {
      // Most chunks of prose hold no character a marker (or a boundary) could start with: they are text
      // as they stand, without the state machine's steps. Likewise most chunks inside a long reasoning
      // block (reasoning as they stand, read on from the newline the last one held) or call body (taken
      // by its reader, up to a partial marker it then holds).
      const mode = this.mode;
      switch (mode.type) {
        case 'text':
        case 'boundary': {
          // The reply's start may hold a reply-start marker: read by the state machine.
          if (mode.type === 'boundary' && (this.atReplyStart || !isPlainLineStart(text, 0, this.syntax.textMarkers))) break;
          const end = plainTextEnd(text, this.syntax.textMarkers, this.textStopCode);
          if (end < 0) break;
          if (end < text.length) {
            // A partial marker ends the chunk, in the middle of a line: held as stepText holds it.
            this.mode = textMode;
            this.holdPartialMarker(this.syntax.textMarkers, text, end);
            return end === 0 ? noEvents : [{ type: 'text', text: text.slice(0, end) }];
          }
          this.mode = text.charCodeAt(text.length - 1) === this.textStopCode ? boundaryMode : textMode;
          return text === '' ? noEvents : [{ type: 'text', text }];
        }
        case 'reasoning': {
          const chunk = this.pending + text;
          const taken = mode.reader.takeLeading(chunk);
          if (taken < 0) break;
          this.pending = chunk.slice(taken);
          if (taken === 0) return noEvents;
          return [{ type: 'reasoning', text: taken === chunk.length ? chunk : chunk.slice(0, taken) }];
        }
        case 'envelope': {
          const taken = mode.reader.takeLeading(text);
          if (taken < 0) break;
          if (taken < text.length) this.holdPartialMarker(mode.reader.heldMarkers, text, taken);
          return noEvents;
        }
        case 'candidate':
          if (mode.reader.takeWhole(text)) return noEvents;
          break;
        case 'fence':
          break;
        default:
          return assertNever(mode, 'parser mode');
      }
    }
    this.consume(this.pending + text);
    return this.events.drain();
  }

  finish(): readonly ParsedEvent[] {
    if (this.finished) return [];
    this.finished = true;
    // Chunks held with a partial marker were not read yet: a scanner settles a body by what it held
    // itself, so it reads them first, as it would have chunk by chunk.
    if (this.partialMarker !== undefined) this.consume(this.pending);
    this.finishMode();
    return this.events.drain();
  }

  private consume(text: string): void {
    let input = text;
    let position = 0;
    this.pending = '';
    this.partialMarker = undefined;
    while (position < input.length) {
      const step = this.step(input, position);
      if (step >= 0) {
        position = step;
      } else if (step === switched) {
        input = this.switchedInput;
        this.switchedInput = '';
        position = 0;
      } else {
        return;
      }
    }
  }

  private hold(input: string, from: number): Step {
    this.pending = input.slice(from);
    return held;
  }

  /**
   * Holds `input[from..]`; when it is all a partial marker of `matcher`, with the cursor `push` walks on
   * from (otherwise the next push reads it again).
   */
  private holdPartialMarker(matcher: MarkerMatcher<unknown>, input: string, from: number): Step {
    this.partialMatcher = matcher;
    this.partialMarker = matcher.partialCursor(input, from);
    return this.hold(input, from);
  }

  private switchTo(input: string): Step {
    this.switchedInput = input;
    return switched;
  }

  private step(input: string, position: number): Step {
    const mode = this.mode;
    switch (mode.type) {
      case 'text':
        return this.stepText(input, position);
      case 'boundary':
        return this.stepBoundary(input, position, mode.afterCall);
      case 'reasoning':
        return this.stepReasoning(input, position, mode.reader);
      case 'envelope':
        return this.stepEnvelope(input, position, mode.reader);
      case 'candidate':
        return this.stepCandidate(input, position, mode.reader);
      case 'fence':
        return this.stepFence(input, position);
      default:
        return assertNever(mode, 'parser mode');
    }
  }

  private stepText(input: string, position: number): Step {
    const hit = this.syntax.textMarkers.findBefore(input, position, this.textStopCode);
    switch (hit.type) {
      case 'stop':
        this.events.text(input.slice(position, hit.index + 1));
        this.mode = boundaryMode;
        return hit.index + 1;
      case 'none':
        this.events.text(input.slice(position));
        return input.length;
      case 'partial':
        this.events.text(input.slice(position, hit.index));
        return this.holdPartialMarker(this.syntax.textMarkers, input, hit.index);
      case 'found':
        this.events.text(input.slice(position, hit.index));
        return this.open(hit);
    }
  }

  private stepBoundary(input: string, position: number, afterCall: boolean): Step {
    if (this.atReplyStart && this.syntax.replyStartMarkers !== undefined) {
      const start = this.syntax.replyStartMarkers.matchAt(input, position);
      if (start.type === 'partial') return this.hold(input, position);
      this.atReplyStart = false;
      if (start.type === 'found') return this.open(start);
    }
    let index = position;
    while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
    this.events.text(input.slice(position, index));
    if (index >= input.length) return index;
    const code = input.charCodeAt(index);
    if (afterCall && code === semicolonCode && this.syntax.bareGrammars.length > 0) {
      // Llama's `{…}; {…}`: the separator goes with the next JSON, and back to the text if that is no call.
      let next = index + 1;
      while (next < input.length && isSpaceCode(input.charCodeAt(next))) next++;
      if (next >= input.length) return this.hold(input, index);
      if (isJsonOpenerCode(input.charCodeAt(next))) return this.openBare(input.slice(index, next), next);
    }
    const hit = this.syntax.textMarkers.matchAt(input, index);
    // Read again, the held text gives the same hold unless it began with Llama's separator (checked above).
    if (hit.type === 'partial')
      return code === semicolonCode ? this.hold(input, index) : this.holdPartialMarker(this.syntax.textMarkers, input, index);
    if (hit.type === 'found') return this.open(hit);
    if (isJsonOpenerCode(code) && this.syntax.bareGrammars.length > 0) return this.openBare('', index);
    this.mode = textMode;
    return index;
  }

  /** Bare JSON starting at `position`, with `opener` (a separator already read) in front of it. */
  private openBare(opener: string, position: number): Step {
    const source = { type: 'bare', family: this.syntax.family, opener } as const;
    this.mode = { type: 'candidate', reader: new CandidateReader(source, this.syntax.bareGrammars, this.roster, this.bodyPieces) };
    return position;
  }

  private stepReasoning(input: string, position: number, reader: ReasoningReader): Step {
    const scan = reader.scan(input, position, this.events);
    if (scan.type === 'more') return scan.keepFrom < input.length ? this.hold(input, scan.keepFrom) : input.length;
    this.mode = boundaryMode;
    return scan.end;
  }

  private stepEnvelope(input: string, position: number, reader: EnvelopeReader): Step {
    const scan = reader.scan(input, position);
    if (scan.type === 'more') {
      return scan.keepFrom < input.length ? this.holdPartialMarker(reader.heldMarkers, input, scan.keepFrom) : input.length;
    }
    if (scan.type === 'declined') {
      this.fenceIsText();
      this.events.text(scan.text);
      this.mode = boundaryMode;
      return scan.end;
    }
    this.callsRead(scan.events, boundaryMode);
    return scan.end;
  }

  private stepCandidate(input: string, position: number, reader: CandidateReader): Step {
    const scan = reader.scan(input, position);
    switch (scan.type) {
      case 'more':
        return scan.keepFrom < input.length ? this.hold(input, scan.keepFrom) : input.length;
      case 'release':
        this.fenceIsText();
        this.events.text(scan.text);
        this.mode = textMode;
        return scan.resume.type === 'position' ? scan.resume.position : this.switchTo(scan.resume.input);
      case 'calls':
        this.callsRead(scan.events, afterCallMode);
        return scan.end;
    }
  }

  /**
   * After a fence opener: whitespace joins it, then a call envelope or JSON keeps the fence open around
   * the call, and anything else makes it text. After the fence's calls: whitespace, then its closer
   * drops the fence, another call joins the ones before, and anything else gives it back to the text.
   */
  private stepFence(input: string, position: number): Step {
    const fence = this.fence as FenceFrame;
    let index = position;
    while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
    if (fence.afterCalls) fence.gap += input.slice(position, index);
    else fence.prefix += input.slice(position, index);
    if (index >= input.length) return index;
    if (fence.afterCalls) {
      if (input.startsWith(fenceCloser, index)) {
        for (const event of fence.calls) this.events.add(event);
        this.leaveFence(this.afterFence);
        return index + fenceCloser.length;
      }
      if (fenceCloser.startsWith(input.slice(index, index + fenceCloser.length))) return this.hold(input, index);
    }
    const next = this.callInFence(input, index);
    if (next !== undefined) return next;
    this.fenceIsText();
    this.mode = fence.afterCalls ? this.afterFence : boundaryMode;
    return index;
  }

  /** A call envelope or JSON opening at `index` inside a fence (read as the fence's), a partial marker held, or undefined. */
  private callInFence(input: string, index: number): Step | undefined {
    const hit = this.syntax.textMarkers.matchAt(input, index);
    if (hit.type === 'partial') return this.holdPartialMarker(this.syntax.textMarkers, input, index);
    if (hit.type === 'found' && hit.value.type === 'envelope') return this.open(hit);
    if (hit.type === 'none' && isJsonOpenerCode(input.charCodeAt(index)) && this.syntax.bareGrammars.length > 0)
      return this.openBare('', index);
    return undefined;
  }

  /** A call envelope or candidate gave `events` (calls, rejections): held in the fence when there is one. */
  private callsRead(events: readonly ParsedEvent[], next: Mode): void {
    const fence = this.fence;
    if (fence === undefined) {
      for (const event of events) this.events.add(event);
      this.mode = next;
      return;
    }
    fence.addCalls(events);
    this.afterFence = next;
    this.mode = fenceMode;
  }

  /** The fence (if any) wraps no call after all: its opener, calls and whitespace are text. */
  private fenceIsText(): void {
    if (this.fence === undefined) return;
    for (const event of this.fence.asText()) this.events.add(event);
    this.fence = undefined;
  }

  private leaveFence(next: Mode): void {
    this.fence = undefined;
    this.mode = next;
  }

  private open(hit: Extract<MarkerHit<TextMarker>, { type: 'found' }>): Step {
    const marker = hit.value;
    switch (marker.type) {
      case 'reasoning':
        this.mode = { type: 'reasoning', reader: new ReasoningReader(marker.reasoning, { type: 'tag' }) };
        break;
      case 'framing':
        // Dropped; the mode (text or boundary) stays as it was.
        break;
      case 'fence':
        this.fence = new FenceFrame(hit.marker, marker.opensOnly);
        this.mode = fenceMode;
        break;
      case 'orphan-close':
        // The reply was inside reasoning the gateway did not know about: what came before was already
        // content (it may have been streamed), so only the tag goes, and the client is told.
        if (!this.orphanCloseReported) this.events.add(orphanCloseWarning(marker.tag));
        this.orphanCloseReported = true;
        this.mode = boundaryMode;
        break;
      case 'envelope':
        this.mode =
          marker.entry.kind === 'explicit'
            ? { type: 'envelope', reader: new EnvelopeReader(marker.entry, hit.marker, this.roster, this.bodyPieces) }
            : {
                type: 'candidate',
                reader: new CandidateReader(
                  { type: 'wrapped', family: marker.entry.family, opener: hit.marker, closers: marker.entry.end },
                  marker.entry.grammars,
                  this.roster,
                  this.bodyPieces,
                ),
              };
        break;
      default:
        assertNever(marker, 'text marker');
    }
    return hit.index + hit.marker.length;
  }

  /** Settles whatever the reply ended inside; envelopes and candidates may hand back text to read again. */
  private finishMode(): void {
    for (;;) {
      const rest = this.pending;
      this.pending = '';
      const mode = this.mode;
      switch (mode.type) {
        case 'boundary':
        case 'text':
          this.events.text(rest);
          return;
        case 'reasoning': {
          const replay = mode.reader.finish(rest, this.events);
          // An empty reply has nothing to say about reasoning.
          if (replay === undefined || replay === '') return;
          this.events.add(unclosedReasoningWarning(mode.reader.tag));
          this.mode = boundaryMode;
          this.atReplyStart = this.syntax.replyStartMarkers !== undefined;
          this.consume(replay);
          break;
        }
        case 'envelope': {
          const outcome = mode.reader.finish(rest);
          // Only text when the scanner could not tell a body from text (see EnvelopeReader.finish).
          if (outcome.events.some((event) => event.type !== 'text')) {
            this.callsRead(outcome.events, boundaryMode);
          } else {
            this.fenceIsText();
            for (const event of outcome.events) this.events.add(event);
            this.mode = boundaryMode;
          }
          if (outcome.replay === undefined && this.fence === undefined) return;
          this.consume(outcome.replay ?? '');
          break;
        }
        case 'candidate': {
          const outcome = mode.reader.finish(rest);
          if (outcome.type === 'events') {
            this.callsRead(outcome.events, afterCallMode);
            if (this.fence === undefined) return;
            break;
          }
          this.fenceIsText();
          this.events.text(outcome.text);
          this.mode = textMode;
          this.consume(outcome.replay);
          break;
        }
        case 'fence': {
          const fence = this.fence as FenceFrame;
          for (const event of fence.atReplyEnd()) this.events.add(event);
          this.events.text(rest);
          this.fence = undefined;
          return;
        }
        default:
          assertNever(mode, 'parser mode');
      }
    }
  }
}
