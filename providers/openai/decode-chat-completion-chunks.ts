/**
 * An upstream SSE stream → parsed `chat.completion.chunk` objects. It stops at `data: [DONE]` and turns
 * an in-band `data: {"error": …}` frame into a GatewayError; the stream releases its body whatever happens.
 */
import { gatewayError, type GatewayError } from '../../src/core/gateway-error.js';
import type { ServerSentEvent } from '../../src/http/sse-decoder.js';
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

/**
 * What readOpenAiStream reads a live reply from: the upstream's reads (each read's SSE events together, see
 * UpstreamStream), and how one read becomes chat.completion.chunk objects. The chunks are decoded inside
 * the reader's own loop rather than by a generator of their own: an async generator between the body and
 * the reader cost a promise and its microtasks on every chunk of every stream.
 */
export type LiveChunks<Read = readonly ServerSentEvent[]> = {
  reads: AsyncIterable<Read>;
  /**
   * Appends the chunks of one read to `into`: `reading` for more, `ended` once the reply's end came (the
   * rest of the body is not read), or an error the upstream sent in band, raised after the chunks before it.
   */
  decode(read: Read, into: Record<string, unknown>[]): DecodeOutcome;
};

export type DecodeOutcome = 'reading' | 'ended' | GatewayError;

/** The chunks of an upstream's chat.completion SSE stream; `state.sawDone` at `data: [DONE]`. */
export function chatCompletionChunks(stream: UpstreamStream, provider: string, state: DecodeState): LiveChunks {
  return { reads: stream.serverSentEvents('drop'), decode: (events, into) => decodeRead(events, into, stream, provider, state) };
}

function decodeRead(
  events: readonly ServerSentEvent[],
  into: Record<string, unknown>[],
  stream: UpstreamStream,
  provider: string,
  state: DecodeState,
): DecodeOutcome {
  for (const event of events) {
    if (event.data === '[DONE]') {
      state.sawDone = true;
      stream.complete();
      return 'ended';
    }
    if (event.data === '') continue;
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(event.data) as Record<string, unknown>;
    } catch {
      throw gatewayError('upstream_bad_chunk', { message: `Upstream provider '${provider}' sent a malformed stream chunk.` });
    }
    // Chunks before the error still count (text the client should see before the failure).
    if (chunk.error !== undefined && chunk.choices === undefined) return inBandError(provider, chunk);
    into.push(chunk);
  }
  return 'reading';
}
