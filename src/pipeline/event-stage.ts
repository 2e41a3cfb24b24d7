/**
 * One pipeline stage, written once for both kinds of event stream. A stage takes events one at a
 * time and appends what it makes of them; `applyStage` runs it over an EventList (a whole reply already
 * in hand) in one synchronous pass, or over a live stream, where consecutive stages share one async
 * generator (StagedEvents): an async generator step per event per stage (a promise and microtasks each)
 * would otherwise cost more than the stages' own work, on every chunk of a long stream.
 */
import { EventList } from '../core/event-list.js';
import { toGatewayError } from '../core/gateway-error.js';
import type { StreamEvent } from '../core/stream-event.js';

export interface EventStage {
  /** Appends to `out` what this event becomes (nothing, itself, or several events). */
  push(event: StreamEvent, out: StreamEvent[]): void;
  /** Appends what the stream's end means (called only if the stage did not finish before). */
  end(out: StreamEvent[]): void;
  /** Set once the stage wants no more events (after a finish or an error): the rest is not read. */
  readonly finished: boolean;
  /**
   * The live stream stopped before its end reached the stage: the reader left early (a client that went
   * away; a source that throws becomes an error event instead). Called at most once, and never for a reply
   * read whole (it is in hand).
   */
  stopped?(): void;
}

/**
 * Feeds `events` through the stages from `first` on, in order; returns what comes out of the last.
 * A stage that has finished gets nothing more (what an earlier stage still makes is dropped before it).
 * Each stage writes into its own buffer in `outputs`, reused from event to event as a generator per
 * stage reused its own: the result is read before the next call.
 */
function pushThrough(stages: readonly EventStage[], outputs: StreamEvent[][], first: number, events: StreamEvent[]): StreamEvent[] {
  let batch = events;
  for (let index = first; index < stages.length && batch.length > 0; index++) {
    const stage = stages[index] as EventStage;
    const out = outputs[index] as StreamEvent[];
    out.length = 0;
    for (const event of batch) {
      if (stage.finished) break;
      stage.push(event, out);
    }
    batch = out;
  }
  return batch;
}

/**
 * The stream's end (or a stage's finish, which ends what reaches it): each stage from `first` on that
 * has not finished gets its `end`, and what that makes flows through the stages after it.
 */
function endFrom(stages: readonly EventStage[], outputs: StreamEvent[][], first: number): StreamEvent[] {
  const produced: StreamEvent[] = [];
  for (let index = first; index < stages.length; index++) {
    const stage = stages[index] as EventStage;
    if (stage.finished) continue;
    const ended: StreamEvent[] = [];
    stage.end(ended);
    produced.push(...pushThrough(stages, outputs, index + 1, ended));
  }
  return produced;
}

/** The latest stage in the chain that has finished, or -1: no event reaches it or the stages before it any more. */
function lastFinished(stages: readonly EventStage[]): number {
  for (let index = stages.length - 1; index >= 0; index--) if ((stages[index] as EventStage).finished) return index;
  return -1;
}

async function* runStages(source: AsyncIterable<StreamEvent>, stages: readonly EventStage[]): AsyncGenerator<StreamEvent> {
  const single: StreamEvent[] = [];
  const outputs = stages.map((): StreamEvent[] => []);
  let reachedEnd = false;
  try {
    let last: StreamEvent[];
    try {
      for await (const event of source) {
        single[0] = event;
        for (const produced of pushThrough(stages, outputs, 0, single)) yield produced;
        const finished = lastFinished(stages);
        if (finished >= 0) {
          // As a stage's own generator would: it stops reading (closing the source, as for await's return
          // does), and the stages after it see the end of their input.
          for (const produced of endFrom(stages, outputs, finished + 1)) yield produced;
          reachedEnd = true;
          return;
        }
      }
      last = endFrom(stages, outputs, 0);
    } catch (error) {
      last = failure(stages, outputs, error);
    }
    reachedEnd = true;
    for (const produced of last) yield produced;
  } finally {
    // The reader left before the end (a client that went away): the stages still open are told.
    if (!reachedEnd) for (const stage of stages) if (!stage.finished) stage.stopped?.();
  }
}

/**
 * Something threw (the source or a stage: a bug, a stack overflow on a pathological reply). A streamed
 * reply is ended only by an event, its headers long sent, so the throw becomes the stream's error event,
 * seen by the stages that have not finished (finalize redacts it, the reply tap counts it). Should a
 * stage throw again on it, the bare error event still ends the stream.
 */
function failure(stages: readonly EventStage[], outputs: StreamEvent[][], thrown: unknown): StreamEvent[] {
  const error: StreamEvent = { type: 'error', error: toGatewayError(thrown) };
  try {
    return pushThrough(stages, outputs, 0, [error]);
  } catch {
    return [error];
  }
}

/**
 * A live stream with the stages applied so far. Until it is read, another stage joins the same pass
 * instead of wrapping it; once read, it is a stream like any other (its iterator is made once, so a
 * reader that takes the first event and then goes on with `for await` continues where it was).
 */
class StagedEvents implements AsyncIterable<StreamEvent> {
  private running: AsyncGenerator<StreamEvent> | undefined = undefined;

  constructor(
    readonly source: AsyncIterable<StreamEvent>,
    readonly stages: readonly EventStage[],
  ) {}

  get started(): boolean {
    return this.running !== undefined;
  }

  [Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    return (this.running ??= runStages(this.source, this.stages));
  }
}

export function applyStage(events: AsyncIterable<StreamEvent>, stage: EventStage): AsyncIterable<StreamEvent> {
  if (events instanceof StagedEvents && !events.started) return new StagedEvents(events.source, [...events.stages, stage]);
  if (!(events instanceof EventList)) return new StagedEvents(events, [stage]);
  const out: StreamEvent[] = [];
  for (const event of events.events) {
    stage.push(event, out);
    if (stage.finished) return new EventList(out);
  }
  stage.end(out);
  return new EventList(out);
}
