/** The validated configuration, as the rest of the gateway sees it (after defaults and ${ENV}). */
import type { ServerKind } from '../core/server-kind.js';
import type { ProviderType } from '../core/provider-types.js';

export type ToolCallingSetting = 'auto' | 'native' | 'prompted';

export type TimeoutSettings = {
  /** TCP/TLS connect timeout. */
  connectMs: number;
  /** Time to the upstream's response headers (for non-streaming replies: the whole generation). */
  headersMs: number;
  /** Longest silence between two body chunks; 0 disables. */
  bodyMs: number;
};

/**
 * Caps on what the gateway reads from one upstream reply, so that a broken or hostile upstream cannot
 * exhaust memory (or V8's ~512 MB string limit) or stall the event loop. Real replies stay far below.
 */
export type UpstreamLimitSettings = {
  /** A body read whole: a non-streamed reply, an error body, a model list, embeddings. */
  maxResponseBytes: number;
  /** One event of an SSE stream (its lines' bytes), or one line of an NDJSON stream (Ollama). */
  maxEventBytes: number;
};

/** How often and how patiently one provider's failed requests are retried (before any byte reached the client). */
export type RetrySettings = {
  /** Retries after the first attempt; 0 is off. */
  count: number;
  /** The first backoff; each next one doubles, with jitter. */
  initialDelayMs: number;
  /** The longest single wait; an upstream's retry-after beyond it ends the retries instead. */
  maxDelayMs: number;
};

/** What makes a request move on to its next fallback: an upstream status, `5xx` (any), a timeout or a connect error. */
export type FallbackCondition = number | '5xx' | 'timeout' | 'connect';

/** How a deployment picks its target: by weight, the fewest requests in flight, or the lowest recent latency. */
export type DeploymentStrategy = 'weighted' | 'least-busy' | 'latency';

/** One name served by several targets (`provider/model`), balanced with health cooldowns. */
export type Deployment = {
  name: string;
  strategy: DeploymentStrategy;
  targets: readonly { model: string; weight: number }[];
  /** How long a target that failed (connect error, 5xx, timeout before the first byte) is skipped. */
  cooldownMs: number;
  /** One conversation to one healthy target, so that the server's prompt cache is reused. */
  sessionAffinity: boolean;
};

export type ModelSettings = {
  family?: string;
  toolCalling?: ToolCallingSetting;
  /**
   * The model's chat template opens `<think>` itself (DeepSeek-R1, QwQ, Qwen3 thinking): replies start in
   * reasoning. Overrides the model table either way (`false`: never assumed).
   */
  startsInReasoning?: boolean;
};

export type ProviderConfig = {
  /** The provider's name, which is also the model prefix (`local/…`). */
  name: string;
  type: ProviderType;
  /** openai kinds end in /v1; anthropic and ollama are the host root. */
  baseUrl: string;
  apiKey?: string;
  /** Extra headers sent on every upstream request. */
  headers: Record<string, string>;
  timeouts: TimeoutSettings;
  limits: UpstreamLimitSettings;
  /** Absent (configs built in code): no retries. */
  retries?: RetrySettings;
  toolCalling: ToolCallingSetting;
  /** Per-model overrides, keyed by the upstream model id. */
  models: Record<string, ModelSettings>;
  /** `scripted` only: the absolute path of the script it replays; absent: the demo model. */
  script?: string;
  /** `openai-compatible` only: the server that answers, as configured; absent: detected. */
  server?: ServerKind;
  /** `vertex` only: the Google Cloud project and location, and where its credentials come from (absent: ADC). */
  vertex?: { project: string; location: string; keyFile?: string; accessToken?: string };
  /** `bedrock` only: the AWS region, and credentials when not from the AWS SDK's default chain. */
  bedrock?: { region: string; profile?: string; accessKeyId?: string; secretAccessKey?: string; sessionToken?: string };
  /** `azure-openai` only: `v1` or a dated API version. */
  apiVersion?: string;
  /** `azure-openai` only: the Entra ID service principal (absent: the environment's credential chain). */
  entra?: { tenantId?: string; clientId?: string; clientSecret?: string };
  /** Anthropic requires max_tokens; used when the request gives none (with a warning). */
  defaultMaxTokens?: number;
  /**
   * Upper bound on concurrent connections to this upstream; unset means no bound. A bound queues the
   * requests beyond it (silently, until a connection frees up), so it is for upstreams that need one.
   */
  maxConnections?: number;
};

/** Limits per key or server-wide; an absent member is no limit. */
export type LimitSettings = {
  requestsPerMinute?: number;
  /** Counted from the replies' usage. */
  tokensPerMinute?: number;
  concurrentStreams?: number;
};

/** Which tools a key may offer to models: `allow` (only these) and/or `deny` (never these), as name globs. */
export type ToolPolicy = { allow?: string[]; deny?: string[] };

/** One client key with its policy; a key given as a plain string has full access and no limits. */
export type ClientKey = {
  key: string;
  /** In logs and metrics instead of the key (`key-1`, `key-2`, … when the config gives none). */
  name: string;
  /** `provider/model` globs the key may use; absent: every model. */
  models?: string[];
  tools?: ToolPolicy;
  limits?: LimitSettings;
  /** May reload the config and read every key's usage. */
  admin?: boolean;
  /** Given as a plain string: every model and tool, no limits, and the metrics (not the admin routes). */
  fullAccess?: true;
  budget?: Budget;
};

/** A spend limit in USD per UTC period. */
export type Budget = { usd: number; period: 'day' | 'week' | 'month' };

/** USD per million tokens; cache reads and writes at the input price when not given. */
export type TokenPrices = { input: number; output: number; cacheRead?: number; cacheWrite?: number };

export type CorsSettings = {
  /** Origins as browsers send them (`https://app.example.com`), or `*` for any. */
  origins: string[];
  /** How long a browser may keep a preflight's answer; default a day. */
  maxAgeSeconds?: number;
};

export type ServerConfig = {
  host: string;
  port: number;
  /** Every client bearer key; empty means no client auth. */
  apiKeys: string[];
  /** The same keys with their names and policies. */
  clientKeys: ClientKey[];
  /** Server-wide limits, shared by every client. */
  limits?: LimitSettings;
  /** The budget of every key that sets none of its own. */
  budget?: Budget;
  bodyLimitBytes: number;
  /** Browser origins allowed to call the gateway (src/plugins/cors.ts); absent: CORS is off. */
  cors?: CorsSettings;
  /** Deepest JSON nesting a request body may have (the body object is level 1); deeper is a 400. */
  maxJsonDepth: number;
  logLevel: string;
  /** Longest time to receive a whole request (headers and body); 0 disables. Responses are not bounded by it. */
  requestTimeoutMs: number;
  /** Longest time to receive a request's headers (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** A live stream quiet for this long gets a keep-alive frame; 0 disables. */
  streamKeepAliveMs: number;
  /** How long a shutdown waits for live streams before ending them with an error frame. */
  shutdownGraceMs: number;
  /** How long a Responses WebSocket connection may stay open (it closes between turns); 0: no limit. */
  webSocketMaxConnectionMs: number;
  /** How long an upstream's refusal of a native feature for a model is remembered (src/core/refusal-memory.ts). */
  refusalMemoryMs: number;
  /**
   * Longest time a non-streaming request waits for its whole reply (retries and fallbacks included),
   * then a 504 `upstream_timeout`; 0 disables. Its size is bounded by the provider's `limits.maxResponseBytes`.
   */
  wholeReplyTimeoutMs: number;
};

/** A request-header rule for agent_format detection: the header's value contains `contains` (any case). */
export type AgentFormatRule = {
  /** A request header name, lower case (`user-agent`). */
  header: string;
  contains: string;
  /** The agent_format it selects (checked against the registered formats at start). */
  format: string;
};

export type AgentFormatSettings = {
  /** Tried in order after the body field and the X-Agent-Format header; the first match wins. */
  rules: AgentFormatRule[];
  /** The format when nothing matched (`openai`). */
  default: string;
};

export type DebugSettings = {
  /** How many prompted-lane replies the inspector keeps (in memory only); 0 is off. */
  recentReplies: number;
};

/** Where replicas keep what they share (src/state); without `redis`, in this process. */
export type StateSettings = {
  /** `redis://[user:password@]host:port/db`; absent: in-process state. */
  redis?: string;
  /** Rate limits while Redis is down: `open` (the default) admits uncounted, `closed` refuses with a 503. */
  onRedisError: 'open' | 'closed';
  /** Put before every Redis key, so that several deployments can share one Redis. */
  keyPrefix: string;
  /** How long a stored response is kept (both backends). */
  responseTtlSeconds: number;
  /** Redis only: a stored response whose JSON is larger is not kept (Redis holds each one whole). */
  maxResponseBytes: number;
  connectTimeoutMs: number;
  /** Bounds every Redis command, so that a stalled Redis is an error, not a hang. */
  commandTimeoutMs: number;
  /**
   * Redis only: a concurrent-stream slot is a lease that expires this long after its last heartbeat
   * (sent every third of it while the stream lives), so a replica that dies frees its slots.
   */
  streamLeaseSeconds: number;
};

export type TelemetrySettings = {
  /** The OTLP/HTTP base URL (`/v1/traces` is added); absent: the standard OTEL_EXPORTER_OTLP_* variables decide. */
  otlpEndpoint?: string;
  serviceName?: string;
  /** Sent with every export (a vendor's API key): redacted from logs like every configured secret. */
  headers: Record<string, string>;
};

export type MetricsSettings = {
  /** A bearer token that grants GET /metrics and nothing else; a secret like the client keys (redacted from logs). */
  token?: string;
};

export type GatewayConfig = {
  server: ServerConfig;
  providers: Record<string, ProviderConfig>;
  agentFormats: AgentFormatSettings;
  debug?: DebugSettings;
  /** OpenTelemetry traces; absent: only the environment can turn them on. */
  telemetry?: TelemetrySettings;
  /** GET /metrics; absent: only a key that reads metrics may scrape (or anyone, without client keys). */
  metrics?: MetricsSettings;
  /** Ordered fallbacks: a primary's `provider/model` (aliases resolved) → the targets tried after it, in order. */
  fallbacks?: ReadonlyMap<string, readonly string[]>;
  /** When a failed target hands over to its next fallback. */
  fallbackOn?: readonly FallbackCondition[];
  /** Model aliases: a name as a client sends it → `provider/model`. A Map: names come from requests. */
  aliases: ReadonlyMap<string, string>;
  /** Prices by `provider/model` glob, in the file's order; over the price data package's. */
  prices?: readonly { glob: string; prices: TokenPrices }[];
  /** Names served by several targets; absent or empty: no balancing work on any request. */
  deployments?: ReadonlyMap<string, Deployment>;
  state: StateSettings;
};
