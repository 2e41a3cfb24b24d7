/** Reads an Anthropic SSE body into neutral events, owning the body until it is consumed or destroyed. */
import type { Readable } from 'node:stream';
import type { StreamEvent } from '../../src/core/index.js';
import { SseDecoder } from '../../src/http/sse-decoder.js';
import { UpstreamBody } from '../../src/http/upstream-body.js';
import { errorFromTransportFailure } from '../../src/http/upstream-error.js';
import type { AnthropicStreamReader } from './anthropic-stream-reader.js';


/**
 * Yields events until exactly one `finish` or `error`. A complete body is drained before the terminal
 * event is yielded (a consumer may stop calling `next()` right after it); in `finally`, when the
 * consumer returns early, it is destroyed: undici keeps an unread body, and its connection, open otherwise.
 */
export async function* readAnthropicStream(
  body: Readable & AsyncIterable<Uint8Array | string>,
  reader: AnthropicStreamReader,
  provider: string,
  maxEventBytes: number,
): AsyncGenerator<StreamEvent, void, undefined> {
  const decoder = new SseDecoder({ maxEventBytes, provider });
  const upstream = new UpstreamBody(body);
  try {
    try {
      for await (const chunk of upstream.chunks()) {
        const events = decoder.push(chunk).flatMap((event) => reader.push(event));
        if (reader.done) {
          upstream.complete();
          yield* events;
          return;
        }
        yield* events;
      }
    } catch (error) {
      // Body timeout, reset connection, abort or an event past the cap: the reply is cut, not complete.
      upstream.release();
      yield* reader.fail(errorFromTransportFailure(error, provider));
      return;
    }
    yield* [...decoder.finish().flatMap((event) => reader.push(event)), ...reader.end()];
  } finally {
    upstream.release();
  }
}
