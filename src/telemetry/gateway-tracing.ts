/**
 * What routes and the composition root see of tracing: plain interfaces, so that nothing of the
 * OpenTelemetry SDK is loaded unless traces are configured (load-tracing.ts imports it on demand).
 */
import type { ProviderConfig } from '../config/config-types.js';
import type { ProviderAdapter } from '../core/provider-adapter.js';
import type { RequestTrace, RequestTraceStart } from '../core/request-trace.js';

export interface GatewayTracing {
  startRequest(start: RequestTraceStart): RequestTrace;
  /** Wraps a provider so each upstream call is a child span of its request's span. */
  traceProvider(adapter: ProviderAdapter, provider: ProviderConfig): ProviderAdapter;
  /** Exports what is buffered now. */
  flush(): Promise<void>;
  /** Exports what is buffered, then stops; bounded in time so that shutdown never hangs on a dead collector. */
  shutdown(): Promise<void>;
}

export type { RequestTrace, RequestTraceRun, RequestTraceStart } from '../core/request-trace.js';
