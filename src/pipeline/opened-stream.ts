/**
 * A stream that another target could still take over: its opening is awaited (its first event past
 * `response-start`, for at most `openingWaitMs`) before the client is sent a byte, so that an upstream that
 * answered 200 and then failed at once (an error event or a broken body before any output: a server whose
 * engine died, vLLM reporting a failure in the stream it had opened) hands over to the next target as one
 * failing before its headers does. Nothing of the reply is delayed: every event is passed on as soon as it is
 * read; only the client's head waits, for the first output or the bound, whichever comes first. A request
 * with no other target (the plain path) never comes here.
 */
import type { StreamEvent } from '../core/stream-event.js';
import { classifyWholeReplyFailure } from '../http/upstream-failure.js';

/**
 * An upstream that fails a request it accepted does so at once (a dead engine, a request it cannot serve);
 * one that is still reading a long prompt is let through after this, its failure then being the client's.
 */
export const openingWaitMs = 2_000;

/** Resolves with the events (the opening replayed) once the stream opened; rejects with the failure it opened with. */
export async function openedStream(events: AsyncIterable<StreamEvent>, waitMs = openingWaitMs): Promise<AsyncIterable<StreamEvent>> {
  const iterator = events[Symbol.asyncIterator]();
  const opening: StreamEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, waitMs, undefined);
  });
  try {
    for (;;) {
      const next = iterator.next();
      const result = await Promise.race([next, waited]);
      // Waited long enough (the read goes on in the replay), or the stream ended: either way it is the client's.
      if (result === undefined || result.done === true) return replay(opening, next, iterator);
      const event = result.value;
      if (event.type === 'error' && classifyWholeReplyFailure(event.error)) {
        // Nothing reached the client: the target failed like one answering 502 (the stream is closed first).
        await iterator.return?.();
        throw event.error;
      }
      opening.push(event);
      if (event.type !== 'response-start') return replay(opening, undefined, iterator);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The opening, then the read still pending (if any), then the rest; the upstream stream is closed however the reader stops. */
async function* replay(
  opening: readonly StreamEvent[],
  pending: Promise<IteratorResult<StreamEvent>> | undefined,
  iterator: AsyncIterator<StreamEvent>,
): AsyncGenerator<StreamEvent> {
  let finished = false;
  try {
    yield* opening;
    if (pending) {
      const result = await pending;
      if (result.done === true) {
        finished = true;
        return;
      }
      yield result.value;
    }
    for (;;) {
      const result = await iterator.next();
      if (result.done === true) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    if (!finished) await iterator.return?.();
  }
}
