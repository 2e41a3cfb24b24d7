/**
 * An upstream SSE body → parsed `chat.completion.chunk` objects. It stops at `data: [DONE]`, turns an
 * in-band `data: {"error": …}` frame into a GatewayError, and releases the body whatever happens.
 */
import type { Readable } from 'node:stream';
import { gatewayError, type GatewayError } from '../../src/core/gateway-error.js';
import { SseDecoder } from '../../src/http/sse-decoder.js';
import { UpstreamBody } from '../../src/http/upstream-body.js';
import { readUpstreamErrorMessage } from '../../src/http/upstream-error.js';

export type DecodeState = { sawDone: boolean };

function inBandError(provider: string, payload: Record<string, unknown>): GatewayError {
  const message = readUpstreamErrorMessage(payload) ?? 'unknown error';
  return gatewayError('upstream_stream_error', { message: `Upstream provider '${provider}' failed mid-stream: ${message}`, upstreamBody: payload.error });
}

/**
 * Yields the chunks of each body read as one batch: a read often carries many SSE events, and one
 * generator step per read (not per event) keeps the per-chunk cost down.
 */
export async function* decodeChatCompletionChunks(body: Readable, provider: string, state: DecodeState, maxEventBytes: number): AsyncGenerator<Record<string, unknown>[]> {
  // Past the cap push() throws; `finally` then destroys the body, so nothing more is read.
  const decoder = new SseDecoder({ maxEventBytes, provider });
  const upstream = new UpstreamBody(body);
  try {
    for await (const bytes of upstream.chunks()) {
      const batch: Record<string, unknown>[] = [];
      for (const event of decoder.push(bytes)) {
        if (event.data === '[DONE]') {
          state.sawDone = true;
          upstream.complete();
          if (batch.length) yield batch;
          return;
        }
        if (event.data === '') continue;
        let chunk: Record<string, unknown>;
        try {
          chunk = JSON.parse(event.data) as Record<string, unknown>;
        } catch {
          throw gatewayError('upstream_bad_chunk', { message: `Upstream provider '${provider}' sent a malformed stream chunk.` });
        }
        if (chunk.error !== undefined && chunk.choices === undefined) {
          // Chunks before the error still count (text the client should see before the failure).
          if (batch.length) yield batch;
          throw inBandError(provider, chunk);
        }
        batch.push(chunk);
      }
      if (batch.length) yield batch;
    }
    decoder.end();
  } finally {
    upstream.release();
  }
}
