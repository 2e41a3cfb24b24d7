/**
 * Events already in hand (a whole reply, read before the adapter resolved) and the three ways in and
 * out of them: `replayEvents` makes one, `foldEvents` reads any stream (and an EventList without an
 * await per event), and the pipeline's `applyStage` (src/pipeline/event-stage.ts) runs a stage over
 * one in a single pass. Only core and that stage runner know the representation; providers and
 * routes import the two functions from stream-event.ts.
 */
import type { StreamEvent } from './stream-event.js';

/**
 * Events already in hand (a whole reply, read before the adapter resolved). It is an event stream like
 * any other, and foldEvents and the pipeline's stages read its array directly: an async
 * generator step per event per stage costs more than the rest of a small reply's handling.
 */
export class EventList implements AsyncIterable<StreamEvent> {
  constructor(readonly events: readonly StreamEvent[]) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    for (const event of this.events) yield event;
  }
}

/** Events already in hand as the AsyncIterable an adapter returns (a whole reply, read before resolving). */
export function replayEvents(events: readonly StreamEvent[]): AsyncIterable<StreamEvent> {
  return new EventList(events);
}

/**
 * Feeds events to `step` until it returns a result (a fold's answer), and closes the stream then.
 * An EventList is read without an await per event.
 */
export async function foldEvents<Result>(
  events: AsyncIterable<StreamEvent>,
  step: (event: StreamEvent) => Result | undefined,
): Promise<Result | undefined> {
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
