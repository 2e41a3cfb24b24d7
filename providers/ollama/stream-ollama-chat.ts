/**
 * One `/api/chat` generation, streamed as NDJSON: sends the converted request, waits for the first
 * chunk, streams events. See https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */
import {
  gatewayError,
  GatewayError,
  toGatewayError,
  type ChatRequest,
  type ProviderContext,
  type StreamEvent,
  type Warning,
} from '../../src/core/index.js';
import { errorFromInBandOverflow, readUpstreamErrorMessage } from '../../src/http/upstream-error.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import { convertToOllamaChatRequest } from './convert-to-ollama-chat-request.js';
import { OllamaChunkTranslator } from './ollama-chunk-translator.js';
import { ollamaHeaders, type OllamaConnection } from './ollama-connection.js';
import { ollamaResponseStart } from './ollama-response-start.js';

export type StreamOllamaChatOptions = {
  connection: OllamaConnection;
  request: ChatRequest;
  context: ProviderContext;
};

/** Ollama reports a failure after its 200 as a line `{"error": "…"}`; a stream may also just stop short of `done`. */
function midStreamFailure(provider: string, detail: string, upstreamBody?: unknown): GatewayError {
  return gatewayError('upstream_stream_error', { message: `Upstream provider '${provider}' failed mid-stream: ${detail}`, upstreamBody });
}

const endedEarly = 'the stream ended without a done chunk';

function errorLine(value: unknown, provider: string): GatewayError | undefined {
  if (typeof value !== 'object' || value === null || !('error' in value)) return undefined;
  const overflow = errorFromInBandOverflow(value);
  if (overflow) return overflow;
  return midStreamFailure(provider, readUpstreamErrorMessage(value) ?? 'unknown error', (value as { error: unknown }).error);
}

/**
 * Resolves once the first chunk arrived. Ollama sends its headers together with the first chunk, and
 * an in-stream error can be that first chunk, so this is where a failure can still be a real HTTP error.
 */
export async function streamOllamaChat(options: StreamOllamaChatOptions): Promise<AsyncIterable<StreamEvent>> {
  const { connection, request, context } = options;
  const { body, warnings } = convertToOllamaChatRequest(request, { stream: true });
  const stream = await connection.client.openStream({
    path: '/api/chat',
    headers: ollamaHeaders(connection, request.forwardHeaders),
    json: body,
    cancellation: context.cancellation,
  });
  const batches = stream.jsonLines();
  let first: unknown[];
  try {
    const next = await batches.next();
    if (next.done) throw midStreamFailure(connection.provider, endedEarly);
    const failure = errorLine(next.value[0], connection.provider);
    if (failure) throw failure;
    first = next.value;
  } catch (error) {
    await batches.return(undefined);
    throw error;
  }
  return translateChunks({ stream, batches, first, warnings, provider: connection.provider, model: request.model.model });
}

async function* translateChunks(options: {
  stream: UpstreamStream;
  batches: AsyncGenerator<unknown[]>;
  /** The first read's values (at least one). */
  first: unknown[];
  warnings: Warning[];
  provider: string;
  model: string;
}): AsyncGenerator<StreamEvent> {
  const { stream, batches, provider } = options;
  const translator = new OllamaChunkTranslator();
  const head = options.first[0];
  const echoedModel = typeof head === 'object' && head !== null ? (head as { model?: unknown }).model : undefined;
  try {
    // Inside the try: a consumer may stop right after this event, and `finally` must still run.
    yield ollamaResponseStart(echoedModel, options.model, options.warnings);
    for (let next: IteratorResult<unknown[]> = { done: false, value: options.first }; !next.done; next = await batches.next()) {
      for (const chunk of next.value) {
        const failure = errorLine(chunk, provider);
        if (failure) {
          yield { type: 'error', error: failure };
          return;
        }
        yield* translator.translate(chunk);
        if (translator.finished) {
          stream.complete();
          return;
        }
      }
    }
    yield { type: 'error', error: midStreamFailure(provider, endedEarly) };
  } catch (error) {
    yield { type: 'error', error: toGatewayError(error) };
  } finally {
    // Also reached when the consumer stops early: the upstream body must not be left open.
    await batches.return(undefined);
  }
}
