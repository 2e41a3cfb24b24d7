/**
 * One pipeline stage, written once for both kinds of event stream. A stage takes events one at a
 * time and appends what it makes of them; `applyStage` runs it over a live stream as an async
 * generator, or over an EventList (a whole reply already in hand) in one synchronous pass, which
 * spares the async generator step per event that would otherwise dominate a small reply's cost.
 */
import { EventList } from '../core/event-list.js';
import type { StreamEvent } from '../core/stream-event.js';

export interface EventStage {
  /** Appends to `out` what this event becomes (nothing, itself, or several events). */
  push(event: StreamEvent, out: StreamEvent[]): void;
  /** Appends what the stream's end means (called only if the stage did not finish before). */
  end(out: StreamEvent[]): void;
  /** Set once the stage wants no more events (after a finish or an error): the rest is not read. */
  readonly finished: boolean;
}

async function* streamThroughStage(events: AsyncIterable<StreamEvent>, stage: EventStage): AsyncGenerator<StreamEvent> {
  const out: StreamEvent[] = [];
  for await (const event of events) {
    stage.push(event, out);
    for (const produced of out) yield produced;
    out.length = 0;
    // Returning closes the source too (for await calls its return()), as a finished stream should.
    if (stage.finished) return;
  }
  stage.end(out);
  for (const produced of out) yield produced;
}

export function applyStage(events: AsyncIterable<StreamEvent>, stage: EventStage): AsyncIterable<StreamEvent> {
  if (!(events instanceof EventList)) return streamThroughStage(events, stage);
  const out: StreamEvent[] = [];
  for (const event of events.events) {
    stage.push(event, out);
    if (stage.finished) return new EventList(out);
  }
  stage.end(out);
  return new EventList(out);
}
