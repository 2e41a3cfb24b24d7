/**
 * The neutral event stream: providers produce it, the pipeline transforms it, routes render it.
 * Tool calls have a start/delta/end lifecycle keyed by `index` (0..n in order of appearance).
 */
import type { Diagnostics } from './diagnostics.js';
import type { FinishReason } from './finish-reason.js';
import type { GatewayError } from './gateway-error.js';
import type { Usage } from './usage.js';
import type { Warning } from './warning.js';

export type StreamEvent =
  | { type: 'response-start'; id: string; model: string; warnings: Warning[] }
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  /** Opaque reasoning signature (Anthropic) so that multi-turn thinking can round-trip. */
  | { type: 'reasoning-signature'; signature: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  /** `arguments` is the complete JSON text; it always equals the concatenated deltas. */
  | { type: 'tool-call-end'; index: number; arguments: string }
  | { type: 'finish'; reason: FinishReason; usage: Usage; diagnostics?: Diagnostics }
  | { type: 'error'; error: GatewayError };

/**
 * Events already in hand (a whole reply, read before the adapter resolved). It is an event stream like
 * any other, and the pipeline's stages and the routes' folds may also read its array directly: an async
 * generator step per event per stage costs more than the rest of a small reply's handling.
 */
export class EventList implements AsyncIterable<StreamEvent> {
  constructor(readonly events: readonly StreamEvent[]) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    for (const event of this.events) yield event;
  }
}

/** Events already in hand as the AsyncIterable an adapter returns (a whole reply, read before resolving). */
export function replayEvents(events: readonly StreamEvent[]): EventList {
  return new EventList(events);
}

/**
 * Feeds events to `step` until it returns a result (a fold's answer), and closes the stream then.
 * An EventList is read without an await per event.
 */
export async function foldEvents<Result>(events: AsyncIterable<StreamEvent>, step: (event: StreamEvent) => Result | undefined): Promise<Result | undefined> {
  if (events instanceof EventList) {
    for (const event of events.events) {
      const result = step(event);
      if (result !== undefined) return result;
    }
    return undefined;
  }
  for await (const event of events) {
    const result = step(event);
    if (result !== undefined) return result;
  }
  return undefined;
}
