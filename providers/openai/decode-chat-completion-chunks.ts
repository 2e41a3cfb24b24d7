/**
 * An upstream SSE stream → parsed `chat.completion.chunk` objects. It stops at `data: [DONE]` and turns
 * an in-band `data: {"error": …}` frame into a GatewayError; the stream releases its body whatever happens.
 */
import { gatewayError, type GatewayError } from '../../src/core/gateway-error.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import { errorFromInBandOverflow, readUpstreamErrorMessage } from '../../src/http/upstream-error.js';

export type DecodeState = { sawDone: boolean };

/**
 * The upstream's own `code` is kept (as for Anthropic's error events): clients decide on it, e.g. Codex
 * gives up on `context_length_exceeded` and backs off on `rate_limit_exceeded` but retries anything else.
 */
function inBandError(provider: string, payload: Record<string, unknown>): GatewayError {
  const overflow = errorFromInBandOverflow(payload);
  if (overflow) return overflow;
  const message = `Upstream provider '${provider}' failed mid-stream: ${readUpstreamErrorMessage(payload) ?? 'unknown error'}`;
  const error = payload.error;
  const code = typeof error === 'object' && error !== null ? (error as Record<string, unknown>).code : undefined;
  if (typeof code !== 'string' || code === '') return gatewayError('upstream_stream_error', { message, upstreamBody: error });
  if (code === 'rate_limit_exceeded')
    return gatewayError('upstream_event_error', { status: 429, type: 'rate_limit_error', code, message, upstreamBody: error });
  return gatewayError('upstream_event_error', { code, message, upstreamBody: error });
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
