/** Reads an Anthropic SSE body into neutral events, owning the body until it is consumed or destroyed. */
import type { Readable } from 'node:stream';
import type { StreamEvent } from '../../src/core/index.js';
import { SseDecoder } from '../../src/http/sse-decoder.js';
import { errorFromTransportFailure } from '../../src/http/upstream-error.js';
import type { AnthropicStreamReader } from './anthropic-stream-reader.js';

/** Destroying a body that is still open closes the upstream connection, so the upstream sees the abort. */
function release(body: Readable): void {
  if (!body.destroyed && !body.readableEnded) body.destroy();
}

/**
 * Yields events until exactly one `finish` or `error`. The body is released before the terminal
 * event is yielded (a consumer may stop calling `next()` right after it), and in `finally` when the
 * consumer returns early: undici keeps an unread body, and its connection, open otherwise.
 */
export async function* readAnthropicStream(
  body: Readable & AsyncIterable<Uint8Array | string>,
  reader: AnthropicStreamReader,
  provider: string,
): AsyncGenerator<StreamEvent, void, undefined> {
  const decoder = new SseDecoder();
  try {
    try {
      for await (const chunk of body) {
        const events = decoder.push(chunk).flatMap((event) => reader.push(event));
        if (reader.done) {
          release(body);
          yield* events;
          return;
        }
        yield* events;
      }
    } catch (error) {
      // Body timeout, reset connection or abort while reading: the reply is cut, not complete.
      release(body);
      yield* reader.fail(errorFromTransportFailure(error, provider));
      return;
    }
    yield* [...decoder.finish().flatMap((event) => reader.push(event)), ...reader.end()];
  } finally {
    release(body);
  }
}
