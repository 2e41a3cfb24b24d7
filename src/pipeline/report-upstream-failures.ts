/**
 * A provider adapter that reports each generation the upstream refused or failed before its first
 * byte (the rejections of `stream`), for the upstream-error metric. Errors inside a stream are reported
 * by the reply tap the metrics already use (tap-reply.ts): no extra layer per event.
 */
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ProviderAdapter } from '../core/provider-adapter.js';

export function reportUpstreamFailures(adapter: ProviderAdapter, report: (error: GatewayError) => void): ProviderAdapter {
  const reporting: ProviderAdapter = {
    stream: (request, context) =>
      adapter.stream(request, context).catch((error: unknown) => {
        report(toGatewayError(error));
        throw error;
      }),
  };
  const { listModels, embed, close } = adapter;
  if (listModels) reporting.listModels = (context) => listModels.call(adapter, context);
  if (embed) reporting.embed = (request, context) => embed.call(adapter, request, context);
  if (close) reporting.close = () => close.call(adapter);
  return reporting;
}
