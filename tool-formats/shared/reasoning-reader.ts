/** Reads one reasoning block (`<think>…</think>` or a family's own tag) out of streamed reply text. */
// Reasoning streams as it comes; only a possible partial close tag, a newline that may sit right before
// it, and whitespace while the block has said nothing yet are held back. A block of whitespace only
// leaves no trace. A block the chat template opened (the reply begins inside reasoning) keeps its raw
// text: when the reply ends without the close tag, that text is read again as the reply itself.
import { isSpaceCode } from './body-scanner.js';
import type { ReasoningTag } from './envelope.js';
import { partialMarkerStart, type MarkerMatcher } from './marker-matcher.js';
import type { ParsedEventBuffer } from './parsed-event-buffer.js';
import type { ReasoningEnd, ReasoningSyntax } from './reasoning-syntax.js';
import { TextPieces } from './text-pieces.js';

export type ReasoningScan =
  /** The block goes on; `input[keepFrom..]` must be scanned again with more text. */
  | { type: 'more'; keepFrom: number }
  /** The block ended; the reply goes on at `end` (after the close tag, or at an `endsBefore` marker). */
  | { type: 'closed'; end: number };

export type ReasoningStart =
  /** The model wrote the open tag. */
  | { type: 'tag' }
  /** The chat template opened the block, so the text has no open tag (one the model writes anyway is dropped). */
  | { type: 'template' };

const newline = '\n';
const newlineCode = 0x0a;

function isBlank(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (!isSpaceCode(text.charCodeAt(index))) return false;
  return true;
}

export class ReasoningReader {
  /** One newline right after the open tag is dropped; decided once a character after the tag is here. */
  private atStart: boolean;
  /** The template opened the block: an open tag the model writes anyway at the very start is dropped. */
  private openerRedundant: boolean;
  /** Raw text of a template-opened block, read again as the reply if no close tag comes. */
  private replay: TextPieces | undefined;
  /** Whitespace held while the block has said nothing else (a blank block leaves no trace). */
  private blank = '';
  private spoke = false;
  readonly tag: ReasoningTag;
  /** Built once per tag by the catalogue (reasoning-syntax.ts): `read` runs on every chunk. */
  private readonly endMarkers: MarkerMatcher<ReasoningEnd>;
  /** The end markers when there are more than the close tag; a plain close tag is searched with `indexOf`. */
  private readonly ends: MarkerMatcher<ReasoningEnd> | undefined;

  constructor(syntax: ReasoningSyntax, start: ReasoningStart) {
    const tag = syntax.tag;
    this.tag = tag;
    this.atStart = start.type === 'tag';
    this.openerRedundant = start.type === 'template';
    this.replay = start.type === 'template' ? new TextPieces() : undefined;
    this.endMarkers = syntax.ends;
    this.ends = syntax.plainClose ? undefined : this.endMarkers;
  }

  /**
   * How much of `text` (the next chunk, after any text held back before it) is reasoning as it stands,
   * past the block's start and its blank beginning, when no end marker is in it: all of it, or all but
   * what the full scan would hold back (a partial end marker at the end, and a newline right before it
   * or before the end, which may sit right before the close tag). -1, with nothing read, when the full
   * scan must read it. Most chunks of a long block are such; the caller emits what was taken as one
   * reasoning event and holds the rest.
   */
  takeLeading(text: string): number {
    if (!this.spoke || this.openerRedundant || this.atStart) return -1;
    const hit = this.endMarkers.find(text, 0);
    if (hit.type === 'found') return -1;
    let taken = hit.type === 'partial' ? hit.index : text.length;
    if (taken > 0 && text.charCodeAt(taken - 1) === newlineCode) taken--;
    if (taken > 0) this.replay?.add(taken === text.length ? text : text.slice(0, taken));
    return taken;
  }

  scan(input: string, position: number, events: ParsedEventBuffer): ReasoningScan {
    const scan = this.read(input, position, events);
    if (scan.type === 'more') this.replay?.add(input.slice(position, scan.keepFrom));
    return scan;
  }

  /**
   * The reply ended inside the block with `rest` unread. Returns the text to read again as the reply
   * when the block was the template's and never closed (the model may not have been reasoning at all).
   */
  finish(rest: string, events: ParsedEventBuffer): string | undefined {
    // No close tag came, so a held newline or partial tag is reasoning text like any other.
    this.emit(rest, events);
    return this.replay === undefined ? undefined : this.replay.join() + rest;
  }

  private read(input: string, position: number, events: ParsedEventBuffer): ReasoningScan {
    let start = position;
    if (this.openerRedundant) {
      // Whitespace before the tag is blank reasoning, so waiting for what follows it loses nothing.
      let tagAt = start;
      while (tagAt < input.length && isSpaceCode(input.charCodeAt(tagAt))) tagAt++;
      const open = this.tag.open;
      if (input.startsWith(open, tagAt)) {
        start = tagAt + open.length;
        this.atStart = true;
        // The model opened the block itself: it is reasoning for sure, even if it never closes.
        this.replay = undefined;
      } else if (open.startsWith(input.slice(tagAt))) {
        // Still a possible prefix of the open tag: decide when more text comes.
        return { type: 'more', keepFrom: start };
      }
      this.openerRedundant = false;
    }
    if (this.atStart && start < input.length) {
      if (input.startsWith(newline, start)) start += newline.length;
      this.atStart = false;
    }
    const ends = this.ends;
    if (ends === undefined) {
      const close = input.indexOf(this.tag.close, start);
      if (close >= 0) return this.close(input, start, close, close + this.tag.close.length, events);
      return this.more(input, start, partialMarkerStart(input, start, this.tag.close), events);
    }
    const hit = ends.find(input, start);
    if (hit.type === 'found')
      return this.close(input, start, hit.index, hit.value === 'close' ? hit.index + hit.marker.length : hit.index, events);
    return this.more(input, start, hit.type === 'partial' ? hit.index : input.length, events);
  }

  /** The block's text is `input[start..closeAt)`, less one newline right before the close. */
  private close(input: string, start: number, closeAt: number, end: number, events: ParsedEventBuffer): ReasoningScan {
    this.emit(input.slice(start, closeAt > start && input.charCodeAt(closeAt - 1) === newlineCode ? closeAt - 1 : closeAt), events);
    this.replay = undefined;
    return { type: 'closed', end };
  }

  /** Emits up to `cut`, holding a possible partial close tag and a newline that may sit right before it. */
  private more(input: string, start: number, cut: number, events: ParsedEventBuffer): ReasoningScan {
    let keepFrom = cut;
    // Compared by code: `endsWith` with a position is slow, and this runs on every chunk.
    if (keepFrom > start && input.charCodeAt(keepFrom - 1) === newlineCode) keepFrom--;
    this.emit(input.slice(start, keepFrom), events);
    return { type: 'more', keepFrom };
  }

  private emit(text: string, events: ParsedEventBuffer): void {
    if (text === '') return;
    if (!this.spoke) {
      if (isBlank(text)) {
        this.blank += text;
        return;
      }
      events.reasoning(this.blank + text);
      this.blank = '';
      this.spoke = true;
      return;
    }
    events.reasoning(text);
  }
}
