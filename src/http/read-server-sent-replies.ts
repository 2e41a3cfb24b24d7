/**
 * The loop an SSE provider runs over its upstream's events: each event through the provider's reader, the
 * stream completed as soon as the reply is whole, and a cut body (a body timeout, a reset connection, an
 * abort, an event past the cap: the stream's GatewayErrors) ending the reply in an error, not a finish.
 */
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ServerSentEvent } from './sse-decoder.js';
import type { UpstreamStream } from './upstream-stream.js';

/** A provider's reader of one reply, besides how it reads an event: whether the reply is whole, and how it ends. */
export type ReplyReader = {
  readonly done: boolean;
  fail(error: GatewayError): StreamEvent[];
  end(): StreamEvent[];
};

/**
 * Yields events until exactly one `finish` or `error`. A complete body is drained before the terminal
 * event is yielded (a consumer may stop calling `next()` right after it); an event left without its blank
 * line at the body's end still counts. When the consumer returns early, leaving the loop releases the
 * stream: undici keeps an unread body, and its connection, open otherwise.
 */
export async function* readServerSentReplies(
  stream: UpstreamStream,
  reader: ReplyReader,
  readEvent: (event: ServerSentEvent) => StreamEvent[],
): AsyncGenerator<StreamEvent, void, undefined> {
  try {
    for await (const batch of stream.serverSentEvents('flush')) {
      const events = batch.flatMap(readEvent);
      if (reader.done) {
        stream.complete();
        yield* events;
        return;
      }
      yield* events;
    }
  } catch (error) {
    yield* reader.fail(toGatewayError(error));
    return;
  }
  yield* reader.end();
}
