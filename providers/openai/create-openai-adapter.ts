/**
 * The adapter for OpenAI and OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, OpenRouter, …).
 * Chat requests go straight over undici (the hot path), streamed, or whole when the client reads the
 * reply whole; model lists and embeddings go through the `openai` package with its retries off and
 * the same undici Agent carrying our timeouts.
 */
import OpenAI from 'openai';
import { fetch as undiciFetch } from 'undici';
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { EmbeddingRequest, EmbeddingResult, ModelInfo, ProviderAdapter, ProviderContext } from '../../src/core/provider-adapter.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { limitFetchResponse } from '../../src/http/limit-fetch-response.js';
import { headersForNonAnthropic } from '../../src/http/headers-for-non-anthropic.js';
import { createUpstreamAgent } from '../../src/http/upstream-agent.js';
import { serializeOpenAiRequestBody, type OpenAiBodyCaches, type OpenAiFlavour } from './build-openai-request-body.js';
import { mapOpenAiError } from './map-openai-error.js';
import { decodeChatCompletionChunks, type DecodeState } from './decode-chat-completion-chunks.js';
import { parseChatCompletion } from './read-chat-completion.js';
import { readOpenAiStream } from './read-openai-stream.js';
import { createChatCompletionConnection, fetchChatCompletion, sendChatCompletionRequest } from './send-chat-completion-request.js';

export function createOpenAiAdapter(config: ProviderConfig, flavour: OpenAiFlavour, caches?: OpenAiBodyCaches): ProviderAdapter {
  const agent = createUpstreamAgent(config);
  const connection = createChatCompletionConnection(config, agent);
  const headers: Record<string, string | null> = { ...config.headers };
  // Without a key, send no Authorization at all rather than a placeholder.
  if (!config.apiKey) headers.Authorization = null;
  const wholeLimit = { type: 'whole', maxBytes: config.limits.maxResponseBytes, provider: config.name } as const;
  // The SDK reads model lists and embeddings whole: through a metered body, so only up to the provider's cap.
  const limitedFetch = async (...parameters: Parameters<typeof undiciFetch>) => limitFetchResponse(await undiciFetch(...parameters), wholeLimit);
  const client = new OpenAI({
    // Explicit, so the SDK never falls back to the process's OPENAI_API_KEY for another upstream.
    apiKey: config.apiKey ?? 'unused',
    baseURL: config.baseUrl,
    maxRetries: 0,
    timeout: config.timeouts.headersMs,
    defaultHeaders: headers,
    fetch: limitedFetch as unknown as typeof globalThis.fetch,
    fetchOptions: { dispatcher: agent } as Record<string, unknown>,
  });

  return {
    async stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
      const whole = context.wholeReply === true;
      // The request's emitter when the route gave one: no AbortSignal made on the hot path.
      const cancellation = context.cancellation ?? context.signal;
      const body = serializeOpenAiRequestBody(request, flavour, { stream: !whole }, caches);
      const readOptions = { provider: config.name, model: request.model.model, warnings: [], signal: cancellation };
      const sendOptions = { signal: cancellation, forwardHeaders: headersForNonAnthropic(request.forwardHeaders) };
      if (whole) {
        // Read before resolving: a non-streaming client has seen nothing yet, so a failure here is still a real HTTP error.
        const text = await fetchChatCompletion(connection, body, sendOptions);
        return readOpenAiStream([parseChatCompletion(text, config.name)], readOptions);
      }
      const upstream = await sendChatCompletionRequest(connection, body, sendOptions);
      const state: DecodeState = { sawDone: false };
      return readOpenAiStream(decodeChatCompletionChunks(upstream, config.name, state, config.limits.maxEventBytes), { ...readOptions, state });
    },

    async listModels(context: ProviderContext): Promise<ModelInfo[]> {
      try {
        const page = await client.models.list({ signal: context.signal });
        return page.data.map((model) => ({ id: model.id, created: model.created, ownedBy: model.owned_by }));
      } catch (error) {
        throw mapOpenAiError(error, config.name);
      }
    },

    async embed(request: EmbeddingRequest, context: ProviderContext): Promise<EmbeddingResult> {
      const body: Record<string, unknown> = { model: request.model, input: request.input };
      if (request.dimensions !== undefined) body.dimensions = request.dimensions;
      if (request.encodingFormat !== undefined) body.encoding_format = request.encodingFormat;
      if (request.user !== undefined) body.user = request.user;
      try {
        const response = await client.embeddings.create(body as unknown as OpenAI.EmbeddingCreateParams, { signal: context.signal });
        const result: EmbeddingResult = { data: response.data.map((item) => ({ index: item.index, embedding: item.embedding })) };
        if (response.usage) result.usage = { promptTokens: response.usage.prompt_tokens, totalTokens: response.usage.total_tokens };
        return result;
      } catch (error) {
        throw mapOpenAiError(error, config.name);
      }
    },

    async close(): Promise<void> {
      await agent.close();
    },
  };
}
