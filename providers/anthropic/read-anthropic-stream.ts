/** Reads an Anthropic SSE stream into neutral events, completing the stream once the reply is whole. */
import { toGatewayError, type StreamEvent } from '../../src/core/index.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import type { AnthropicStreamReader } from './anthropic-stream-reader.js';

/**
 * Yields events until exactly one `finish` or `error`. A complete body is drained before the terminal
 * event is yielded (a consumer may stop calling `next()` right after it); when the consumer returns
 * early, leaving the loop releases the stream: undici keeps an unread body, and its connection, open otherwise.
 */
export async function* readAnthropicStream(
  stream: UpstreamStream,
  reader: AnthropicStreamReader,
): AsyncGenerator<StreamEvent, void, undefined> {
  const batches = stream.serverSentEvents('flush');
  try {
    for await (const batch of batches) {
      const events = batch.flatMap((event) => reader.push(event));
      if (reader.done) {
        stream.complete();
        yield* events;
        return;
      }
      yield* events;
    }
  } catch (error) {
    // Body timeout, reset connection, abort or an event past the cap (the stream's GatewayErrors): the reply is cut, not complete.
    yield* reader.fail(toGatewayError(error));
    return;
  }
  yield* reader.end();
}
