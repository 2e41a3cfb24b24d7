/** One request's trace as routes and the pipeline's listeners see it; src/telemetry implements it (only when traces are configured). */
import type { IncomingHttpHeaders } from 'node:http';
import type { GenerationOptions } from './chat-request.js';
import type { ProviderContext } from './provider-adapter.js';
import type { ReplySummary } from './reply-summary.js';
import type { ResolvedModel, ToolCallingMode } from './resolved-model.js';
import type { Usage } from './usage.js';

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
  /** The reply ended without the upstream's usage: the gateway's estimate of it, which was charged. */
  estimated(usage: Usage): void;
  /** The request failed (thrown before or while the reply was rendered, or an upstream error mid-stream). */
  failed(error: unknown): void;
  /** The reply ended: the span ends (once). */
  end(statusCode: number, outcome?: string): void;
}
