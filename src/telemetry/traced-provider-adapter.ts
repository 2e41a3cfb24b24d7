/** A provider whose every generation is a child span of its request's span (see upstream-span.ts). */
import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { ChatRequest } from '../core/chat-request.js';
import type { EmbeddingRequest, EmbeddingResult, ModelInfo, ProviderAdapter, ProviderContext } from '../core/provider-adapter.js';
import type { StreamEvent } from '../core/stream-event.js';
import { applyStage } from '../pipeline/event-stage.js';
import { startUpstreamSpan, type RequestSpan, type SpanSetting } from './request-span.js';
import type { UpstreamEndpoint } from './upstream-endpoint.js';

export class TracedProviderAdapter implements ProviderAdapter {
  readonly listModels?: (context: ProviderContext) => Promise<ModelInfo[]>;
  readonly embed?: (request: EmbeddingRequest, context: ProviderContext) => Promise<EmbeddingResult>;
  readonly close?: () => Promise<void>;

  constructor(
    private readonly adapter: ProviderAdapter,
    private readonly endpoint: UpstreamEndpoint,
    private readonly setting: SpanSetting,
    /** The request span a context was bound to (absent for calls made outside a traced request). */
    private readonly requestOf: (context: ProviderContext) => RequestSpan | undefined,
  ) {
    // Only what the wrapped adapter has: a missing method means "cannot" to the callers.
    if (adapter.listModels) this.listModels = adapter.listModels.bind(adapter);
    if (adapter.embed) this.embed = adapter.embed.bind(adapter);
    if (adapter.close) this.close = adapter.close.bind(adapter);
  }

  async stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    const parent = this.requestOf(context);
    const call = parent ? parent.startUpstream(request.model.model, this.endpoint) : startUpstreamSpan(this.setting, ROOT_CONTEXT, request.model.model, this.endpoint, () => {});
    let events: AsyncIterable<StreamEvent>;
    try {
      events = await this.adapter.stream(request, context);
    } catch (error) {
      call.fail(error);
      throw error;
    }
    return applyStage(events, call);
  }
}
