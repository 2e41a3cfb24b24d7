/** One `/api/chat` generation: sends the converted request, waits for the first chunk, streams events. */
import type { AbortableAsyncIterator, ChatRequest as PackageChatRequest, ChatResponse } from 'ollama';
import type { ChatRequest, ProviderContext, StreamEvent, Warning } from '../../src/core/index.js';
import { callOllama, type OllamaCallScope } from './call-ollama.js';
import { convertToOllamaChatRequest } from './convert-to-ollama-chat-request.js';
import { mapOllamaError } from './map-ollama-error.js';
import type { OllamaClient } from './ollama-client.js';
import { OllamaChunkTranslator } from './ollama-chunk-translator.js';
import { ollamaResponseStart } from './ollama-response-start.js';

export type StreamOllamaChatOptions = {
  client: OllamaClient;
  provider: string;
  request: ChatRequest;
  context: ProviderContext;
};

/**
 * Resolves once the first chunk arrived. Ollama sends its headers together with the first chunk, and
 * an in-stream error can be that first chunk, so this is where a failure can still be a real HTTP error.
 */
export async function streamOllamaChat(options: StreamOllamaChatOptions): Promise<AsyncIterable<StreamEvent>> {
  const { client, provider, request, context } = options;
  const { body, warnings } = convertToOllamaChatRequest(request, { stream: true });
  const scope: OllamaCallScope = { provider, signal: context.signal, headers: request.forwardHeaders };
  // The package's types narrow tool schemas and lack tool-call ids; the server takes what we send.
  const stream = await callOllama(scope, () => client.chat(body as PackageChatRequest & { stream: true }));
  const chunks = stream[Symbol.asyncIterator]();
  const first = await callOllama(scope, () => chunks.next()).catch((error: unknown) => {
    stream.abort();
    client.release(stream);
    throw error;
  });
  return translateChunks({ client, stream, chunks, first, warnings, scope, model: request.model.model });
}

async function* translateChunks(options: {
  client: OllamaClient;
  stream: AbortableAsyncIterator<ChatResponse>;
  chunks: AsyncIterator<ChatResponse>;
  first: IteratorResult<ChatResponse>;
  warnings: Warning[];
  scope: OllamaCallScope;
  model: string;
}): AsyncGenerator<StreamEvent> {
  const { client, stream, chunks, scope } = options;
  const translator = new OllamaChunkTranslator();
  const echoedModel = options.first.done ? undefined : (options.first.value as { model?: unknown }).model;
  try {
    // Inside the try: a consumer may stop right after this event, and `finally` must still run.
    yield ollamaResponseStart(echoedModel, options.model, options.warnings);
    for (let next = options.first; !next.done; next = await chunks.next()) {
      yield* translator.translate(next.value);
      if (translator.finished) return;
    }
    // The package throws before this point when `done` never came; kept so the contract holds regardless.
    yield { type: 'error', error: mapOllamaError(new Error('the stream ended without a done chunk'), scope) };
  } catch (error) {
    yield { type: 'error', error: mapOllamaError(error, scope) };
  } finally {
    // Also reached when the consumer stops early: the upstream body must not be left open.
    if (!translator.finished) stream.abort();
    client.release(stream);
  }
}
