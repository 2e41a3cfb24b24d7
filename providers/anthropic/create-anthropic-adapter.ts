/**
 * The `anthropic` provider adapter: neutral requests to the Anthropic Messages API and back, streamed,
 * or as one whole `message` when the client reads the reply whole.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest, ProviderAdapter, ProviderContext, StreamEvent } from '../../src/core/index.js';
import { createUpstreamAgent } from '../../src/http/upstream-agent.js';
import { AnthropicStreamReader } from './anthropic-stream-reader.js';
import { buildAnthropicRequestBody } from './build-anthropic-request-body.js';
import { listAnthropicModels } from './list-anthropic-models.js';
import { readAnthropicMessage } from './read-anthropic-message.js';
import { readAnthropicStream } from './read-anthropic-stream.js';
import { sendAnthropicRequest, type AnthropicConnection } from './send-anthropic-request.js';

/** Anthropic has no embeddings endpoint, so the adapter has no `embed`. */
export function createAnthropicAdapter(config: ProviderConfig): ProviderAdapter {
  const connection: AnthropicConnection = {
    config,
    agent: createUpstreamAgent(config),
    baseUrl: config.baseUrl.replace(/\/+$/, ''),
  };

  async function stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    const whole = context.wholeReply === true;
    const { body, warnings } = buildAnthropicRequestBody(request, config, { stream: !whole });
    if (warnings.length > 0) context.log.debug({ warnings, provider: config.name }, 'anthropic request warnings');
    const response = await sendAnthropicRequest(connection, {
      method: 'POST',
      path: '/v1/messages',
      body,
      forwardHeaders: request.forwardHeaders,
      // The request's emitter when the route gave one: no AbortSignal made on the hot path.
      signal: context.cancellation ?? context.signal,
    });
    const reader = new AnthropicStreamReader({ provider: config.name, model: request.model.model, warnings });
    if (whole) return readAnthropicMessage(response.body, reader, config.name);
    return readAnthropicStream(response.body, reader, config.name);
  }

  return {
    stream,
    listModels: (context) => listAnthropicModels(connection, context),
    close: () => connection.agent.close(),
  };
}
