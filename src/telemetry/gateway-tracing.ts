/**
 * What routes and the composition root see of tracing: plain interfaces, so that nothing of the
 * OpenTelemetry SDK is loaded unless traces are configured (load-tracing.ts imports it on demand).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ProviderConfig } from '../config/config-types.js';
import type { GenerationOptions } from '../core/chat-request.js';
import type { ProviderAdapter, ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel, ToolCallingMode } from '../core/resolved-model.js';
import type { ReplySummary } from '../pipeline/tap-reply.js';

export type RequestTraceStart = {
  /** The client's headers: a W3C `traceparent` (and `tracestate`) makes the span its child. */
  headers: IncomingHttpHeaders;
  route: string;
  /** The model string as the client wrote it (the span's name until the model is resolved). */
  requestedModel: string;
  stream: boolean;
  options: GenerationOptions;
  keyName?: string;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
};

export type RequestTraceRun = {
  model: ResolvedModel;
  lane: ToolCallingMode;
  family?: string;
};

/** One request's span, from its arrival to the reply's last byte. */
export interface RequestTrace {
  /** The upstream calls made with this context become child spans. */
  bind(context: ProviderContext): void;
  /** The pipeline resolved the model and chose the lane. */
  started(run: RequestTraceRun): void;
  /** The reply finished (usage, finish reason, calls). */
  finished(summary: ReplySummary): void;
  /** The request failed (thrown before or while the reply was rendered, or an upstream error mid-stream). */
  failed(error: unknown): void;
  /** The reply ended: the span ends (once). */
  end(statusCode: number, outcome?: string): void;
}

export interface GatewayTracing {
  startRequest(start: RequestTraceStart): RequestTrace;
  /** Wraps a provider so each upstream call is a child span of its request's span. */
  traceProvider(adapter: ProviderAdapter, provider: ProviderConfig): ProviderAdapter;
  /** Exports what is buffered now. */
  flush(): Promise<void>;
  /** Exports what is buffered, then stops; bounded in time so that shutdown never hangs on a dead collector. */
  shutdown(): Promise<void>;
}
