/**
 * The `gemini` provider adapter: neutral requests to Google's Gemini API (`generateContent`, streamed
 * as SSE with `streamGenerateContent?alt=sse`, or read whole when the client reads the reply whole).
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest, ProviderAdapter, ProviderContext, StreamEvent } from '../../src/core/index.js';
import { buildGeminiRequestBody } from './build-gemini-request-body.js';
import { GeminiReplyReader } from './gemini-reply-reader.js';
import { listGeminiModels } from './list-gemini-models.js';
import { readGeminiReply } from './read-gemini-reply.js';
import { readGeminiStream } from './read-gemini-stream.js';
import { GeminiUpstream } from './send-gemini-request.js';

/** Where the model's methods live and how calls authenticate, when not Google's Gemini API (Vertex AI's). */
export type GeminiRoute = {
  modelPath(model: string): string;
  authorization(): Promise<Record<string, string>>;
};

/** Gemini's embeddings (`embedContent`) take another body; this adapter has no `embed` yet. */
export function createGeminiAdapter(config: ProviderConfig, route?: GeminiRoute): ProviderAdapter {
  const upstream = new GeminiUpstream(config, route?.authorization);

  async function stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    const { body, warnings } = buildGeminiRequestBody(request, config.name);
    if (warnings.length > 0) context.log.debug({ warnings, provider: config.name }, 'gemini request warnings');
    const reader = new GeminiReplyReader({ provider: config.name, model: request.model.model, warnings });
    const model = route ? route.modelPath(request.model.model) : `/v1beta/models/${encodeURIComponent(request.model.model)}`;
    const call = { body, forwardHeaders: request.forwardHeaders, cancellation: context.cancellation };
    if (context.wholeReply === true)
      return readGeminiReply(await upstream.readText({ ...call, path: `${model}:generateContent` }), reader, config.name);
    return readGeminiStream(await upstream.openStream({ ...call, path: `${model}:streamGenerateContent?alt=sse` }), reader);
  }

  const adapter: ProviderAdapter = { stream, close: () => upstream.close() };
  // Vertex AI lists no publisher models per project: its models are the configured ones.
  if (!route) adapter.listModels = (context) => listGeminiModels(upstream, context);
  return adapter;
}
