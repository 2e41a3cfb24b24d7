/**
 * Prometheus metrics (prom-client, in a registry of the app's own): requests by route, provider, model,
 * status and key name; latency and time to first token; upstream errors, retries and fallbacks; tokens in
 * and out; tool calls per family and lane; rate-limit refusals; live streams. Served as text at GET /metrics,
 * behind the same keys as every route.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { GatewayError } from '../core/gateway-error.js';
import type { ReplySummary } from '../pipeline/tap-reply.js';
import type { ResilienceObserver, UpstreamHandover } from '../pipeline/stream-with-retries.js';
import { BoundedLabelValues } from './bounded-label-values.js';

export type RequestObservation = { route: string; provider?: string; model?: string; status: number; key?: string; durationMs: number };

export type ReplyObservation = {
  provider: string;
  model: string;
  lane: string;
  family?: string;
  key?: string;
  startedAt: number;
  summary: ReplySummary;
};

/** Distinct model names kept as label values: far more than a deployment serves, far fewer than a flood of made-up names. */
const defaultModelLabelLimit = 500;

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export class Metrics implements ResilienceObserver {
  readonly registry = new Registry();
  private readonly requests: Counter<string>;
  private readonly duration: Histogram<string>;
  private readonly firstToken: Histogram<string>;
  private readonly tokens: Counter<string>;
  private readonly toolCalls: Counter<string>;
  private readonly upstreamErrors: Counter<string>;
  private readonly retries: Counter<string>;
  private readonly fallbacks: Counter<string>;
  private readonly models: BoundedLabelValues;

  constructor(liveStreams: () => number, modelLabelLimit = defaultModelLabelLimit) {
    this.models = new BoundedLabelValues(modelLabelLimit);
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'interlingua_requests_total',
      help: 'Requests answered, by route, provider, model, status and key name.',
      labelNames: ['route', 'provider', 'model', 'status', 'key'],
      registers,
    });
    this.duration = new Histogram({
      name: 'interlingua_request_duration_seconds',
      help: 'Time to the end of the reply (streams: to their last byte).',
      labelNames: ['route', 'provider', 'status'],
      buckets: latencyBuckets,
      registers,
    });
    this.firstToken = new Histogram({
      name: 'interlingua_time_to_first_token_seconds',
      help: 'Time from the request to the first text, reasoning or tool call.',
      labelNames: ['provider', 'model', 'lane'],
      buckets: latencyBuckets,
      registers,
    });
    this.tokens = new Counter({
      name: 'interlingua_tokens_total',
      help: "Tokens by direction (input, output), from the replies' usage.",
      labelNames: ['provider', 'model', 'direction', 'key'],
      registers,
    });
    this.toolCalls = new Counter({
      name: 'interlingua_tool_calls_total',
      help: 'Tool calls returned (parsed) or refused (rejected, unparsed), per family and lane.',
      labelNames: ['family', 'lane', 'outcome'],
      registers,
    });
    this.upstreamErrors = new Counter({
      name: 'interlingua_upstream_errors_total',
      help: 'Upstream failures, by provider, status and error type: calls that failed before their first byte, and replies that ended in an error.',
      labelNames: ['provider', 'status', 'type'],
      registers,
    });
    this.retries = new Counter({
      name: 'interlingua_upstream_retries_total',
      help: 'Upstream requests retried, by the target that failed and how (http_503, connect, timeout).',
      labelNames: ['provider', 'model', 'reason'],
      registers,
    });
    this.fallbacks = new Counter({
      name: 'interlingua_upstream_fallbacks_total',
      help: 'Requests handed to their next fallback, by the target that failed and how.',
      labelNames: ['provider', 'model', 'reason'],
      registers,
    });
    new Gauge({
      name: 'interlingua_live_streams',
      help: 'Streams open now.',
      registers,
      collect() {
        this.set(liveStreams());
      },
    });
  }

  observeRequest(observation: RequestObservation): void {
    const status = String(observation.status);
    this.requests.inc({
      route: observation.route,
      provider: observation.provider ?? '',
      model: this.models.label(observation.model ?? ''),
      status,
      key: observation.key ?? '',
    });
    this.duration.observe({ route: observation.route, provider: observation.provider ?? '', status }, observation.durationMs / 1000);
  }

  observeRetry(handover: UpstreamHandover): void {
    this.retries.inc({ ...handover, model: this.models.label(handover.model) });
  }

  observeFallback(handover: UpstreamHandover): void {
    this.fallbacks.inc({ ...handover, model: this.models.label(handover.model) });
  }

  observeReply(observation: ReplyObservation): void {
    const { summary, provider, lane } = observation;
    const model = this.models.label(observation.model);
    const family = observation.family ?? 'native';
    if (summary.firstTokenAt !== undefined)
      this.firstToken.observe({ provider, model, lane }, (summary.firstTokenAt - observation.startedAt) / 1000);
    const key = observation.key ?? '';
    if (summary.usage.inputTokens) this.tokens.inc({ provider, model, direction: 'input', key }, summary.usage.inputTokens);
    if (summary.usage.outputTokens) this.tokens.inc({ provider, model, direction: 'output', key }, summary.usage.outputTokens);
    if (summary.toolCalls) this.toolCalls.inc({ family, lane, outcome: 'parsed' }, summary.toolCalls);
    if (summary.diagnostics?.toolCallError) this.toolCalls.inc({ family, lane, outcome: 'rejected' });
    if (summary.diagnostics?.unparsedToolCall) this.toolCalls.inc({ family, lane, outcome: 'unparsed' });
  }

  /** By GatewayError's few types; the upstream's own code is left out (its values are the upstream's to choose, without bound). */
  observeUpstreamError(provider: string, error: GatewayError): void {
    this.upstreamErrors.inc({ provider, status: String(error.status), type: error.type });
  }
}

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
}
