/**
 * A provider adapter that reports each generation the upstream refused or failed before its first
 * byte (the rejections of `stream`), for the upstream-error metric. Errors inside a stream are reported
 * by the reply tap the metrics already use (tap-reply.ts): no extra layer per event.
 */
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ProviderAdapter } from '../core/provider-adapter.js';
import { withStream } from './with-stream.js';

export function reportUpstreamFailures(adapter: ProviderAdapter, report: (error: GatewayError) => void): ProviderAdapter {
  return withStream(adapter, (request, context) =>
    adapter.stream(request, context).catch((error: unknown) => {
      report(toGatewayError(error));
      throw error;
    }),
  );
}
