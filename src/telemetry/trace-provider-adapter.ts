/** A provider whose every generation is a child span of its request's span (see upstream-span.ts). */
import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { ProviderAdapter, ProviderContext } from '../core/provider-adapter.js';
import type { StreamEvent } from '../core/stream-event.js';
import { applyStage } from '../pipeline/event-stage.js';
import { withStream } from '../pipeline/with-stream.js';
import { startUpstreamSpan, type RequestSpan, type SpanSetting } from './request-span.js';
import type { UpstreamEndpoint } from './upstream-endpoint.js';

/** `requestOf` gives the request span a context was bound to (absent for calls made outside a traced request). */
export function traceProviderAdapter(
  adapter: ProviderAdapter,
  endpoint: UpstreamEndpoint,
  setting: SpanSetting,
  requestOf: (context: ProviderContext) => RequestSpan | undefined,
): ProviderAdapter {
  return withStream(adapter, async (request, context) => {
    const parent = requestOf(context);
    const call = parent
      ? parent.startUpstream(request.model.model, endpoint)
      : startUpstreamSpan(setting, ROOT_CONTEXT, request.model.model, endpoint, () => {});
    let events: AsyncIterable<StreamEvent>;
    try {
      events = await adapter.stream(request, context);
    } catch (error) {
      call.fail(error);
      throw error;
    }
    return applyStage(events, call);
  });
}
