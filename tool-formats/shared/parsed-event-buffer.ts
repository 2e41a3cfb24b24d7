/** Collects a push's events, merging adjacent text and adjacent reasoning so callers get few, large events. */
import type { ParsedEvent } from '../../src/core/index.js';

/**
 * What a push that parsed nothing returns: most pushes of a stream (4-byte chunks inside a call body)
 * parse nothing, and a new empty array for each would be most of their allocation. Frozen, so a caller
 * that tried to keep adding to it would fail loudly instead of corrupting other pushes' results.
 */
export const noEvents: ParsedEvent[] = Object.freeze([] as ParsedEvent[]) as ParsedEvent[];

export class ParsedEventBuffer {
  private events: ParsedEvent[] = [];

  text(text: string): void {
    if (text === '') return;
    const last = this.last();
    if (last?.type === 'text') last.text += text;
    else this.events.push({ type: 'text', text });
  }

  reasoning(text: string): void {
    if (text === '') return;
    const last = this.last();
    if (last?.type === 'reasoning') last.text += text;
    else this.events.push({ type: 'reasoning', text });
  }

  add(event: ParsedEvent): void {
    if (event.type === 'text') this.text(event.text);
    else if (event.type === 'reasoning') this.reasoning(event.text);
    else this.events.push(event);
  }

  /** Checked before indexing: reading past the end of an array deoptimises the hot path. */
  private last(): ParsedEvent | undefined {
    return this.events.length === 0 ? undefined : this.events[this.events.length - 1];
  }

  drain(): ParsedEvent[] {
    if (this.events.length === 0) return noEvents;
    const events = this.events;
    this.events = [];
    return events;
  }
}
