/** Collects a push's events, merging adjacent text and adjacent reasoning so callers get few, large events. */
import type { ParsedEvent } from '../../src/core/index.js';

/**
 * What a push that parsed nothing returns: most pushes of a stream (4-byte chunks inside a call body)
 * parse nothing, and a new empty array for each would be most of their allocation. Read-only by type,
 * not frozen: a frozen array has a map of its own, so a caller's `for…of` over push results would meet
 * two array maps and allocate an iterator and its results per push (the bench's streaming loop
 * allocated 48 MB per MB of reply with it frozen, 21 MB without).
 */
export const noEvents: readonly ParsedEvent[] = [];

export class ParsedEventBuffer {
  /**
   * Most pushes yield one event (a chunk of text or reasoning): it waits here, and `drain` returns it in
   * a one-element array literal. A growable array would allocate room for seventeen on its first push,
   * once per chunk.
   */
  private first: ParsedEvent | undefined = undefined;
  /** All the events, `first` included, once a push yields more than one. */
  private all: ParsedEvent[] | undefined = undefined;

  text(text: string): void {
    if (text === '') return;
    const last = this.last();
    if (last?.type === 'text') last.text += text;
    else this.push({ type: 'text', text });
  }

  reasoning(text: string): void {
    if (text === '') return;
    const last = this.last();
    if (last?.type === 'reasoning') last.text += text;
    else this.push({ type: 'reasoning', text });
  }

  add(event: ParsedEvent): void {
    if (event.type === 'text') this.text(event.text);
    else if (event.type === 'reasoning') this.reasoning(event.text);
    else this.push(event);
  }

  private push(event: ParsedEvent): void {
    if (this.first === undefined) this.first = event;
    else if (this.all === undefined) this.all = [this.first, event];
    else this.all.push(event);
  }

  /** Checked before indexing: reading past the end of an array deoptimises the hot path. */
  private last(): ParsedEvent | undefined {
    const all = this.all;
    return all === undefined ? this.first : all[all.length - 1];
  }

  drain(): readonly ParsedEvent[] {
    const first = this.first;
    if (first === undefined) return noEvents;
    const all = this.all;
    this.first = undefined;
    this.all = undefined;
    return all ?? [first];
  }
}
