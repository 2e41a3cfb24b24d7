/**
 * One `/api/chat` generation for a client that reads the reply whole: `stream: false`, so Ollama answers
 * with one object shaped like the final NDJSON chunk but holding the whole message, which the chunk
 * translator reads like any chunk. See https://github.com/ollama/ollama/blob/main/docs/api.md#chat-request-no-streaming
 */
import { gatewayError, replayEvents, type GatewayError, type StreamEvent } from '../../src/core/index.js';
import { errorFromInBandOverflow, readUpstreamErrorMessage } from '../../src/http/upstream-error.js';
import { convertToOllamaChatRequest } from './convert-to-ollama-chat-request.js';
import { OllamaChunkTranslator } from './ollama-chunk-translator.js';
import { ollamaHeaders } from './ollama-connection.js';
import { ollamaResponseStart } from './ollama-response-start.js';
import type { StreamOllamaChatOptions } from './stream-ollama-chat.js';

/** A 2xx body without `done: true`: an `{"error": …}` object (as proxies send it) or something else entirely. */
function notAReply(reply: unknown, provider: string): GatewayError {
  const upstreamMessage = typeof reply === 'object' && reply !== null && 'error' in reply ? readUpstreamErrorMessage(reply) : undefined;
  if (upstreamMessage !== undefined) {
    const overflow = errorFromInBandOverflow(reply);
    if (overflow) return overflow;
    return gatewayError('upstream_error', { message: `Upstream provider '${provider}' failed: ${upstreamMessage}`, upstreamBody: reply });
  }
  return gatewayError('upstream_bad_response', {
    message: `Upstream provider '${provider}' sent a reply that is not a finished chat reply.`,
    upstreamBody: reply,
  });
}

/**
 * Resolves only once the whole reply was read and understood: a non-streaming client has seen nothing
 * yet, so every failure (error status, cut or non-JSON body, abort) is still a real HTTP error.
 */
export async function readWholeOllamaChat(options: StreamOllamaChatOptions): Promise<AsyncIterable<StreamEvent>> {
  const { connection, request, context } = options;
  const { body, warnings } = convertToOllamaChatRequest(request, { stream: false });
  const reply = await connection.client.readJson({
    path: '/api/chat',
    headers: ollamaHeaders(connection, request.forwardHeaders),
    json: body,
    cancellation: context.cancellation,
  });
  const translator = new OllamaChunkTranslator();
  const echoedModel = typeof reply === 'object' && reply !== null ? (reply as { model?: unknown }).model : undefined;
  const events = [ollamaResponseStart(echoedModel, request.model.model, warnings), ...translator.translate(reply)];
  if (!translator.finished) throw notAReply(reply, connection.provider);
  return replayEvents(events);
}
