/**
 * An upstream SSE stream → parsed `chat.completion.chunk` objects. It stops at `data: [DONE]` and turns
 * an in-band `data: {"error": …}` frame into a GatewayError; the stream releases its body whatever happens.
 */
import { gatewayError, type GatewayError } from '../../src/core/gateway-error.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import { readUpstreamErrorMessage } from '../../src/http/upstream-error.js';

export type DecodeState = { sawDone: boolean };

function inBandError(provider: string, payload: Record<string, unknown>): GatewayError {
  const message = readUpstreamErrorMessage(payload) ?? 'unknown error';
  return gatewayError('upstream_stream_error', {
    message: `Upstream provider '${provider}' failed mid-stream: ${message}`,
    upstreamBody: payload.error,
  });
}

/** Yields the chunks of each upstream read as one batch (see UpstreamStream). */
export async function* decodeChatCompletionChunks(
  stream: UpstreamStream,
  provider: string,
  state: DecodeState,
): AsyncGenerator<Record<string, unknown>[]> {
  for await (const events of stream.serverSentEvents('drop')) {
    const batch: Record<string, unknown>[] = [];
    for (const event of events) {
      if (event.data === '[DONE]') {
        state.sawDone = true;
        stream.complete();
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
}
