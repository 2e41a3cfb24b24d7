/**
 * The `gemini` provider adapter: neutral requests to Google's Gemini API (`generateContent`, streamed
 * as SSE with `streamGenerateContent?alt=sse`, or read whole when the client reads the reply whole).
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest, ProviderAdapter, ProviderContext, StreamEvent } from '../../src/core/index.js';
import { createUpstreamAgent } from '../../src/http/upstream-agent.js';
import { buildGeminiRequestBody } from './build-gemini-request-body.js';
import { GeminiReplyReader } from './gemini-reply-reader.js';
import { listGeminiModels } from './list-gemini-models.js';
import { readGeminiReply } from './read-gemini-reply.js';
import { readGeminiStream } from './read-gemini-stream.js';
import { createGeminiConnection, requestGeminiStream, requestGeminiWhole } from './send-gemini-request.js';

/** Gemini's embeddings (`embedContent`) take another body; this adapter has no `embed` yet. */
export function createGeminiAdapter(config: ProviderConfig): ProviderAdapter {
  const agent = createUpstreamAgent(config);
  const connection = createGeminiConnection(config, agent);

  async function stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    const { body, warnings } = buildGeminiRequestBody(request, config.name);
    if (warnings.length > 0) context.log.debug({ warnings, provider: config.name }, 'gemini request warnings');
    const reader = new GeminiReplyReader({ provider: config.name, model: request.model.model, warnings });
    const model = `/v1beta/models/${encodeURIComponent(request.model.model)}`;
    const call = { body, forwardHeaders: request.forwardHeaders, signal: context.cancellation ?? context.signal };
    if (context.wholeReply === true) return readGeminiReply(await requestGeminiWhole(connection, { ...call, path: `${model}:generateContent` }), reader, config.name);
    const response = await requestGeminiStream(connection, { ...call, path: `${model}:streamGenerateContent?alt=sse` });
    return readGeminiStream(response, reader, config.name, config.limits.maxEventBytes);
  }

  return {
    stream,
    listModels: (context) => listGeminiModels(connection, context),
    close: () => agent.close(),
  };
}
