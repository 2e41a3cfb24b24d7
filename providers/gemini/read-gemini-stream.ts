/** Reads a `streamGenerateContent?alt=sse` body into neutral events, owning the body until it is consumed or destroyed. */
import type { StreamEvent } from '../../src/core/index.js';
import { SseDecoder } from '../../src/http/sse-decoder.js';
import { UpstreamBody } from '../../src/http/upstream-body.js';
import { errorFromTransportFailure } from '../../src/http/upstream-error.js';
import { parseJsonLoosely } from '../anthropic/read-loose-json.js';
import type { GeminiReplyReader } from './gemini-reply-reader.js';
import type { GeminiStreamBody } from './send-gemini-request.js';

/**
 * Yields events until exactly one `finish` or `error`. Gemini's last event carries the finish reason but
 * no end marker, so the reply is finished when the body ends. In `finally`, when the consumer returns
 * early, the body is destroyed: undici keeps an unread body, and its connection, open otherwise.
 */
export async function* readGeminiStream(body: GeminiStreamBody, reader: GeminiReplyReader, provider: string, maxEventBytes: number): AsyncGenerator<StreamEvent, void, undefined> {
  const decoder = new SseDecoder({ maxEventBytes, provider });
  const upstream = new UpstreamBody(body);
  try {
    try {
      for await (const chunk of upstream.chunks()) {
        const events = decoder.push(chunk).flatMap((event) => reader.push(parseJsonLoosely(event.data)));
        yield* events;
        if (reader.done) return;
      }
    } catch (error) {
      // Body timeout, reset connection, abort or an event past the cap: the reply is cut, not complete.
      upstream.release();
      yield* reader.fail(errorFromTransportFailure(error, provider));
      return;
    }
    upstream.complete();
    yield* [...decoder.finish().flatMap((event) => reader.push(parseJsonLoosely(event.data))), ...reader.end()];
  } finally {
    upstream.release();
  }
}
