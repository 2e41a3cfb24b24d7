/**
 * An adapter that generates through `stream` and keeps the wrapped adapter's other methods as they are:
 * the one way the layers around a provider (upstream-error metric, traces) wrap only its generations.
 * Only what the wrapped adapter has is copied: a missing method means "cannot" to the callers.
 */
import type { ProviderAdapter } from '../core/provider-adapter.js';

export function withStream(adapter: ProviderAdapter, stream: ProviderAdapter['stream']): ProviderAdapter {
  const wrapped: ProviderAdapter = { stream };
  const { listModels, embed, close } = adapter;
  if (listModels) wrapped.listModels = (context) => listModels.call(adapter, context);
  if (embed) wrapped.embed = (request, context) => embed.call(adapter, request, context);
  if (close) wrapped.close = () => close.call(adapter);
  return wrapped;
}
