/**
 * Caps what a package reading an upstream `fetch` Response (the `openai` SDK's model lists and
 * embeddings, the `ollama` package) can be made to buffer: the body is handed on through a stream
 * that counts bytes, and past the cap cancels the upstream body (closing its connection, nothing more
 * read) and fails with a 502 that the package rethrows as it is.
 *
 * `lines` is for NDJSON streams: the cap is per line, and chunks are handed on cut at line ends. The
 * `ollama` package splits its whole pending text at every chunk (`buffer.split('\n')`), which made a
 * long line cost time quadratic in its length; with whole lines only, its pending text is always empty.
 */
import { Response } from 'undici';
import { upstreamResponseTooLarge } from './upstream-response-too-large.js';

export type FetchResponseLimit =
  /** A body read whole: at most `maxBytes` in all. */
  | { type: 'whole'; maxBytes: number; provider: string }
  /** A stream of lines: at most `maxBytes` in one line; chunks passed on end at a line end. */
  | { type: 'lines'; maxBytes: number; provider: string };

const lineFeed = 0x0a;

/**
 * Counts bytes and, for `lines`, holds back an unfinished line. Once the cap is passed it sets `failure`
 * and passes on only what came before the oversized line (the reply so far, which the client sees first).
 */
class BodyMeter {
  failure: Error | undefined;
  private total = 0;
  private partial: Uint8Array[] = [];
  private partialBytes = 0;

  constructor(private readonly limit: FetchResponseLimit) {}

  /** What of `chunk` to pass on now. */
  take(chunk: Uint8Array): Uint8Array | undefined {
    const { limit } = this;
    if (limit.type === 'whole') {
      this.total += chunk.byteLength;
      if (this.total <= limit.maxBytes) return chunk;
      this.failure = upstreamResponseTooLarge(limit.provider, 'reply', limit.maxBytes);
      return undefined;
    }
    // Every line end of the chunk is found once.
    let lineStart = 0;
    for (let end = chunk.indexOf(lineFeed); end !== -1; end = chunk.indexOf(lineFeed, end + 1)) {
      const length = (lineStart === 0 ? this.partialBytes : 0) + end - lineStart;
      if (length > limit.maxBytes) return this.fail(chunk, lineStart);
      lineStart = end + 1;
    }
    const out = lineStart === 0 ? undefined : this.completeLines(chunk.subarray(0, lineStart));
    const rest = chunk.subarray(lineStart);
    this.partial.push(rest);
    this.partialBytes += rest.byteLength;
    if (this.partialBytes > limit.maxBytes) return this.fail(chunk, lineStart, out);
    return out;
  }

  /** What is left when the body ends (a last line without its line end). */
  rest(): Uint8Array | undefined {
    if (this.partialBytes === 0) return undefined;
    const out = Buffer.concat(this.partial);
    this.partial = [];
    this.partialBytes = 0;
    return out;
  }

  /** The held-back line's bytes, then `complete` (which ends at a line end). */
  private completeLines(complete: Uint8Array): Uint8Array {
    const out = this.partialBytes === 0 ? complete : Buffer.concat([...this.partial, complete]);
    this.partial = [];
    this.partialBytes = 0;
    return out;
  }

  /** The line starting at `lineStart` is too long: pass on the lines before it, and nothing after. */
  private fail(chunk: Uint8Array, lineStart: number, alreadyComplete?: Uint8Array): Uint8Array | undefined {
    this.failure = upstreamResponseTooLarge(this.limit.provider, 'event', this.limit.maxBytes);
    const out = alreadyComplete ?? (lineStart === 0 ? undefined : this.completeLines(chunk.subarray(0, lineStart)));
    this.partial = [];
    this.partialBytes = 0;
    return out;
  }
}

function meteredStream(source: ReadableStream<Uint8Array>, limit: FetchResponseLimit): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const meter = new BodyMeter(limit);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Reads until there is something to pass on: a held-back line end must not look like the end.
      for (;;) {
        if (meter.failure) {
          await reader.cancel(meter.failure).catch(() => undefined);
          controller.error(meter.failure);
          return;
        }
        const { done, value } = await reader.read();
        if (done) {
          const rest = meter.rest();
          if (rest) controller.enqueue(rest);
          controller.close();
          return;
        }
        const out = meter.take(value);
        if (out) {
          controller.enqueue(out);
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** The same response (status, headers) with its body metered; a response without a body is returned as it is. */
export function limitFetchResponse(response: Response, limit: FetchResponseLimit): Response {
  if (!response.body) return response;
  return new Response(meteredStream(response.body as ReadableStream<Uint8Array>, limit), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
