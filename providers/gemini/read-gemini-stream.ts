/** Reads a `streamGenerateContent?alt=sse` stream into neutral events. */
import { toGatewayError, type StreamEvent } from '../../src/core/index.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import { parseJsonLoosely } from '../../src/http/read-loose-json.js';
import type { GeminiReplyReader } from './gemini-reply-reader.js';

/**
 * Yields events until exactly one `finish` or `error`. Gemini's last event carries the finish reason but
 * no end marker, so the reply is finished when the body ends (an event left without its blank line
 * still counts). When the consumer returns early, leaving the loop releases the stream: undici keeps
 * an unread body, and its connection, open otherwise.
 */
export async function* readGeminiStream(stream: UpstreamStream, reader: GeminiReplyReader): AsyncGenerator<StreamEvent, void, undefined> {
  try {
    for await (const batch of stream.serverSentEvents('flush')) {
      const events = batch.flatMap((event) => reader.push(parseJsonLoosely(event.data)));
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
