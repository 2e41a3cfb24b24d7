/**
 * Prometheus metrics (prom-client, in a registry of the app's own): requests by route, provider, model,
 * status and key name; latency and time to first token; upstream errors, retries and fallbacks; tokens in
 * and out; tool calls per family and lane; rate-limit refusals; live streams. Served as text at GET /metrics,
 * behind the same keys as every route, or a token of its own (`metrics.token`) that grants nothing else.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import { gatewayError, type GatewayError } from '../core/gateway-error.js';
import type { Usage } from '../core/usage.js';
import type { ReplySummary } from '../pipeline/tap-reply.js';
import type { ResilienceObserver, UpstreamHandover } from '../pipeline/stream-with-retries.js';
import { metricsPath, presentedKey } from './client-auth.js';
import { BoundedLabelValues, SeriesCounter, SeriesHistogram } from './labelled-series.js';

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
  // Series found by their label values (labelled-series.ts): the request path hashes no label object.
  private readonly requests: SeriesCounter;
  private readonly duration: SeriesHistogram;
  private readonly firstToken: SeriesHistogram;
  private readonly tokens: SeriesCounter;
  private readonly cost: SeriesCounter;
  private readonly toolCalls: SeriesCounter;
  private readonly upstreamErrors: SeriesCounter;
  private readonly retries: SeriesCounter;
  private readonly fallbacks: SeriesCounter;
  private readonly models: BoundedLabelValues;

  constructor(liveStreams: () => number, modelLabelLimit = defaultModelLabelLimit) {
    this.models = new BoundedLabelValues(modelLabelLimit);
    this.requests = new SeriesCounter(
      {
        name: 'interlingua_requests_total',
        help: 'Requests answered, by route, provider, model, status and key name.',
        labelNames: ['route', 'provider', 'model', 'status', 'key'],
      },
      this.registry,
    );
    this.duration = new SeriesHistogram(
      {
        name: 'interlingua_request_duration_seconds',
        help: 'Time to the end of the reply (streams: to their last byte).',
        labelNames: ['route', 'provider', 'status'],
        buckets: latencyBuckets,
      },
      this.registry,
    );
    this.firstToken = new SeriesHistogram(
      {
        name: 'interlingua_time_to_first_token_seconds',
        help: 'Time from the request to the first text, reasoning or tool call.',
        labelNames: ['provider', 'model', 'lane'],
        buckets: latencyBuckets,
      },
      this.registry,
    );
    this.tokens = new SeriesCounter(
      {
        name: 'interlingua_tokens_total',
        help: "Tokens by direction (input, output), from the replies' usage.",
        labelNames: ['provider', 'model', 'direction', 'key'],
      },
      this.registry,
    );
    this.cost = new SeriesCounter(
      {
        name: 'interlingua_cost_usd_total',
        help: 'What replies cost in USD, from the price table (models with a known price only).',
        labelNames: ['key', 'provider', 'model'],
      },
      this.registry,
    );
    this.toolCalls = new SeriesCounter(
      {
        name: 'interlingua_tool_calls_total',
        help: 'Tool calls returned (parsed) or refused (rejected, unparsed), per family and lane.',
        labelNames: ['family', 'lane', 'outcome'],
      },
      this.registry,
    );
    this.upstreamErrors = new SeriesCounter(
      {
        name: 'interlingua_upstream_errors_total',
        help: 'Upstream failures, by provider, status and error type: calls that failed before their first byte, and replies that ended in an error.',
        labelNames: ['provider', 'status', 'type'],
      },
      this.registry,
    );
    this.retries = new SeriesCounter(
      {
        name: 'interlingua_upstream_retries_total',
        help: 'Upstream requests retried, by the target that failed and how (http_503, connect, timeout).',
        labelNames: ['provider', 'model', 'reason'],
      },
      this.registry,
    );
    this.fallbacks = new SeriesCounter(
      {
        name: 'interlingua_upstream_fallbacks_total',
        help: 'Requests handed to their next fallback, by the target that failed and how.',
        labelNames: ['provider', 'model', 'reason'],
      },
      this.registry,
    );
    new Gauge({
      name: 'interlingua_live_streams',
      help: 'Streams open now.',
      registers: [this.registry],
      collect() {
        this.set(liveStreams());
      },
    });
  }

  observeRequest(observation: RequestObservation): void {
    const { route, status } = observation;
    const provider = observation.provider ?? '';
    this.requests.inc(1, route, provider, this.models.label(observation.model ?? ''), status, observation.key ?? '');
    this.duration.observe(observation.durationMs / 1000, route, provider, status);
  }

  observeRetry(handover: UpstreamHandover): void {
    this.retries.inc(1, handover.provider, this.models.label(handover.model), handover.reason);
  }

  observeFallback(handover: UpstreamHandover): void {
    this.fallbacks.inc(1, handover.provider, this.models.label(handover.model), handover.reason);
  }

  observeReply(observation: ReplyObservation): void {
    const { summary, provider, lane } = observation;
    const model = this.models.label(observation.model);
    const family = observation.family ?? 'native';
    if (summary.firstTokenAt !== undefined)
      this.firstToken.observe((summary.firstTokenAt - observation.startedAt) / 1000, provider, model, lane);
    this.countUsage(summary.usage, provider, model, observation.key ?? '');
    if (summary.toolCalls) this.toolCalls.inc(summary.toolCalls, family, lane, 'parsed');
    const diagnostics = summary.diagnostics;
    if (diagnostics?.toolCallError) this.toolCalls.inc(1, family, lane, 'rejected');
    if (diagnostics?.unparsedToolCall) this.toolCalls.inc(1, family, lane, 'unparsed');
  }

  /**
   * Usage that does not come with a chat reply's summary: an embeddings reply's, and the estimate of a reply
   * cut short before the upstream's usage came (a client that left, a stream that broke off), which counts in
   * the token and cost totals as it does in budgets and /v1/usage, since the upstream billed what it generated.
   */
  observeUsage(provider: string, model: string, key: string | undefined, usage: Usage): void {
    this.countUsage(usage, provider, this.models.label(model), key ?? '');
  }

  private countUsage(usage: Usage, provider: string, model: string, key: string): void {
    const { inputTokens, outputTokens, costUsd } = usage;
    if (inputTokens) this.tokens.inc(inputTokens, provider, model, 'input', key);
    if (outputTokens) this.tokens.inc(outputTokens, provider, model, 'output', key);
    if (costUsd) this.cost.inc(costUsd, key, provider, model);
  }

  /** By GatewayError's few types; the upstream's own code is left out (its values are the upstream's to choose, without bound). */
  observeUpstreamError(provider: string, error: GatewayError): void {
    this.upstreamErrors.inc(1, provider, error.status, error.type);
  }
}

/**
 * `pending`: what finished requests have yet to record (after-reply.ts); a scrape counts every request that ended before it.
 * The series name every key and its tokens and spend, which `GET /v1/usage` shows a key only of itself:
 * with client keys configured a scrape needs an admin key or a full-access one given as a plain string
 * (403 `admin_only` for a key written as a policy object), which Prometheus sends as `authorization: { credentials: … }`. Without keys the gateway trusts its network, as vLLM's
 * /metrics does. `isScrapeToken`: the metrics token's constant-time check, when `metrics.token` is set: it
 * scrapes whatever the keys, so a scraper needs no key that could also generate.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: Metrics,
  pending: { flush(): void },
  isScrapeToken?: (candidate: string | undefined) => boolean,
): void {
  app.get(metricsPath, async (request, reply) => {
    // The metrics token (`metrics.token`) scrapes with or without client keys; without keys it is then the only way in.
    if (isScrapeToken?.(presentedKey(request.headers))) return sendMetrics(reply, metrics, pending);
    const access = request.gatewayContext?.access;
    if (!access && isScrapeToken) {
      void reply.header('www-authenticate', 'Bearer');
      throw gatewayError('invalid_api_key', { message: 'Missing or invalid metrics token.' });
    }
    if (access && !access.readsMetrics)
      throw gatewayError('admin_only', {
        message:
          'Only an admin key, or one given as a plain string (full access), may read the metrics: they name every key with its usage.',
      });
    return sendMetrics(reply, metrics, pending);
  });
}

async function sendMetrics(reply: FastifyReply, metrics: Metrics, pending: { flush(): void }): Promise<FastifyReply> {
  pending.flush();
  return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
}
