/**
 * buildApp(config): the composition root, and the only file that sees routes, providers and tool
 * formats together. Everything else depends on the neutral core.
 */
import { cancellationFromSignal } from './core/cancellation.js';
import { RandomHexPool } from './core/random-hex-pool.js';
import fastifyWebsocket from '@fastify/websocket';
import type { RequestListener, Server } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { createProviderAdapter, genAiProviderName, providerKind } from '../providers/index.js';
import { registerChatCompletionsRoutes } from '../routes/chat-completions/index.js';
import { registerEmbeddingsRoutes } from '../routes/embeddings/index.js';
import { registerHealthRoutes } from '../routes/health/index.js';
import { registerMessagesRoutes } from '../routes/messages/index.js';
import { DeploymentBalancer } from './pipeline/deployment-balancer.js';
import { EmbeddingPipeline } from './pipeline/embedding-pipeline.js';
import { shareDeploymentHealth } from './plugins/shared-deployment-health.js';
import { PriceTable } from './pipeline/price-table.js';
import { registerAdminRoutes } from '../routes/admin/index.js';
import type { ReloadOutcome } from './live-gateway.js';
import { registerUsageRoutes } from '../routes/usage/index.js';
import { UsageLog } from './core/usage-log.js';
import { registerModelsRoutes } from '../routes/models/index.js';
import { inspectorPagePaths, registerInspectorPage } from '../routes/inspector/index.js';
import { registerResponsesRoutes } from '../routes/responses/index.js';
import { DocumentResponseStore } from '../routes/responses/document-response-store.js';
import { ResponseStore } from '../routes/responses/response-store.js';
import { inProcessResponses, type StoredResponses } from '../routes/responses/stored-responses.js';
import { BodyValidators } from '../routes/shared/body-validator.js';
import { toOpenAiErrorBody } from '../routes/shared/openai-wire.js';
import { registerToolCallsRoutes } from '../routes/tool-calls/index.js';
import { createAgentSyntaxRegistry } from '../tool-formats/agent-syntaxes/index.js';
import { createToolFormatRegistry } from '../tool-formats/index.js';
import { repairJsonText } from '../tool-formats/shared/repair-json-text.js';
import { createSchemaCheck } from './pipeline/schema-validators.js';
import type { Budget, GatewayConfig } from './config/config-types.js';
import { configuredSecrets } from './config/configured-secrets.js';
import { RequestCaches } from './core/request-caches.js';
import { SecretRedactor } from './core/secret-redactor.js';
import { redactProviderErrors } from './pipeline/redacting-provider-adapter.js';
import { silentLogger } from './core/logger.js';
import type { ProviderAdapter } from './core/provider-adapter.js';
import { AccessPolicy } from './pipeline/access-policy.js';
import { ChatPipeline } from './pipeline/chat-pipeline.js';
import { ProviderDirectory } from './pipeline/provider-directory.js';
import { RecentReplies } from './pipeline/recent-replies.js';
import { ToolCallInspector } from './pipeline/tool-call-inspector.js';
import { createKeyChecker, registerClientAuth } from './plugins/client-auth.js';
import { VerifiedKeyMemo } from './plugins/verified-key-memo.js';
import { closeSocketsForRestart } from './plugins/restart-close-sockets.js';
import { registerCloseRefusedUpgrades } from './plugins/close-refused-upgrades.js';
import { createClientErrorResponder } from './plugins/client-error-response.js';
import { ErrorEnvelopes, registerErrorEnvelope, sendFrameworkError } from './plugins/error-envelope.js';
import { registerCors } from './plugins/cors.js';
import { registerJsonBodyParser } from './plugins/json-body-parser.js';
import { registerRequestBodyDecoding } from './plugins/request-body-decoding.js';
import { KnownToolLists } from './plugins/known-tool-lists.js';
import { LiveStreams, registerLiveStreams } from './plugins/live-streams.js';
import { createLazyChildLogger, registerRequestLog } from './plugins/request-log.js';
import { Metrics, registerMetricsRoute } from './plugins/metrics.js';
import { AfterReply } from './plugins/after-reply.js';
import { RateLimits } from './plugins/rate-limits.js';
import { registerRateLimits } from './plugins/rate-limits-hook.js';
import { BudgetLedger, createInProcessBudgetState, registerBudgets, type InProcessBudgetState } from './plugins/budgets.js';
import { ReservationEstimates } from './pipeline/reservation-estimate.js';
import { registerRequestContext } from './plugins/request-context.js';
import { serverTimeoutOptions } from './plugins/server-timeouts.js';
import { StreamKeepAlive } from './plugins/stream-keep-alive.js';
import { BodyDeadlines } from './plugins/request-body-deadline.js';
import { registerRequestIntake } from './plugins/request-intake.js';
import { ShutdownRefusal } from './plugins/shutdown-refusal.js';
import { createInProcessState } from './state/in-process-state.js';
import { createRedisState } from './state/redis-state.js';
import type { InProcessState, SharedState } from './state/shared-state.js';
import { UpstreamProfiles, type ProbedProvider } from './pipeline/upstream-profiles.js';
import { refusalMemories } from './core/refusal-memory.js';
import type { ResilienceObserver } from './pipeline/stream-with-retries.js';
import { loadTracing } from './telemetry/load-tracing.js';
import { version } from './version.js';
import { continueOnlyWithinBodyLimit } from './plugins/expect-continue.js';

export type BuildAppOptions = {
  /** A pino logger; defaults to createGatewayLogger's. Its lines are redacted only if it was made by createGatewayLogger. */
  logger?: PinoLogger;
  /** The config's secrets, to redact from client messages; defaults to createConfigRedactor(config). */
  redactor?: SecretRedactor;
  /** How long shutdown waits for live streams before aborting them (default: server.shutdownGraceMs). */
  shutdownGraceMs?: number;
  /** Where the OTEL_* variables are read (default: process.env). */
  environment?: Record<string, string | undefined>;
  /**
   * Whether the servers behind `openai-compatible` and `ollama` providers are asked what they are once
   * the app is ready (default true). Tests of other things turn it off so that their fake upstreams see
   * only the requests the test makes.
   */
  detectServers?: boolean;
  /** The shortest time between two detections of one provider's server (default 30 s; tests shorten it). */
  serverRedetectAfterMs?: number;
  /** Hands fastify the server it serves (src/live-gateway.ts: one listening server in front of each reloaded app). */
  serverFactory?: (handler: RequestListener) => Server;
  /** Reloads the config file (`POST /admin/reload`, admin keys only); the route exists only with it. */
  reload?: () => Promise<ReloadOutcome>;
  /** What outlives a config reload (the process keeps it): usage and in-process budget spend; fresh when absent. */
  lasting?: LastingState;
  /** The clock refusal memories read (`server.refusalMemoryMs`); Date.now when absent (tests move their own). */
  now?: () => number;
};

/**
 * What the process keeps across config reloads: a new config must not forgive what a key already spent,
 * reopen a rate-limit window, forget a stored response a client will continue from, or start the metrics'
 * counters again (a reset counter reads as a restart). Each reloaded app uses these instead of its own.
 */
export type LastingState = {
  usageLog: UsageLog;
  /** In-process budget spend and the reservations of requests in flight (the old app's release into it). */
  inProcessBudgets: InProcessBudgetState;
  /** Rate-limit windows and stream slots without Redis (its counters are kept by name). */
  inProcessState: InProcessState;
  /** Stored Responses without Redis: made by the first app, with its TTL. */
  responseStore?: ResponseStore;
  metrics: Metrics;
  /** Each live app's count of generations in flight: the metrics' gauge is their sum. */
  liveGenerationCounts: Set<() => number>;
};

export function createLastingState(): LastingState {
  const liveGenerationCounts = new Set<() => number>();
  const liveGenerations = () => {
    let total = 0;
    for (const count of liveGenerationCounts) total += count();
    return total;
  };
  return {
    usageLog: new UsageLog(),
    inProcessBudgets: createInProcessBudgetState(),
    inProcessState: createInProcessState(),
    metrics: new Metrics(liveGenerations),
    liveGenerationCounts,
  };
}

/** The one redactor of a config's secrets, shared by the logger and the app (server.ts builds the logger first). */
export function createConfigRedactor(config: GatewayConfig): SecretRedactor {
  return new SecretRedactor(configuredSecrets(config));
}

/**
 * The gateway's logger. With secrets configured, every line (every level, every field, error causes
 * and stacks included) passes the redactor as its final JSON text, just before it is written.
 */
export function createGatewayLogger(config: GatewayConfig, redactor: SecretRedactor, destination?: DestinationStream): PinoLogger {
  const hooks = redactor.active ? { streamWrite: (line: string) => redactor.redact(line) } : {};
  return destination ? pino({ level: config.server.logLevel, hooks }, destination) : pino({ level: config.server.logLevel, hooks });
}

const requestIdPattern = /^[\w.:@+=-]{1,128}$/;

function clientRequestId(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && requestIdPattern.test(value) ? value : undefined;
}

/** A provider is reachable when it lists its models in time (one that cannot list is taken as reachable). */
async function providerAnswers(adapter: ProviderAdapter | undefined): Promise<boolean> {
  if (!adapter) return false;
  if (!adapter.listModels) return true;
  await adapter.listModels({ cancellation: cancellationFromSignal(AbortSignal.timeout(2_000)), requestId: 'readiness', log: silentLogger });
  return true;
}

/** The providers whose kind can ask its server what it is, each with its prober (src/pipeline/upstream-profiles.ts). */
function probedProviders(config: GatewayConfig): ProbedProvider[] {
  return Object.values(config.providers).flatMap((provider): ProbedProvider[] => {
    const prober = providerKind(provider.type).createServerProber?.(provider);
    if (!prober) return [];
    const configured = provider.server ?? (provider.type === 'ollama' ? 'ollama' : undefined);
    return [configured === undefined ? { name: provider.name, prober } : { name: provider.name, prober, configured }];
  });
}

/** In-process unless the config names a Redis; then counters and stored responses are shared with every replica using it. */
function createSharedState(config: GatewayConfig, logger: PinoLogger, lasting: LastingState | undefined): SharedState {
  const { redis } = config.state;
  if (redis === undefined) return lasting?.inProcessState ?? createInProcessState();
  return createRedisState({ ...config.state, redis }, logger);
}

function createStoredResponses(config: GatewayConfig, state: SharedState, lasting: LastingState | undefined): StoredResponses {
  const ttlMs = config.state.responseTtlSeconds * 1000;
  if (state.kind === 'in-process') {
    const store = lasting ? (lasting.responseStore ??= new ResponseStore({ ttlMs })) : new ResponseStore({ ttlMs });
    return inProcessResponses(store);
  }
  return new DocumentResponseStore(state.documents, { keyPrefix: config.state.keyPrefix, ttlMs, maxBytes: config.state.maxResponseBytes });
}

/** What a build has started so far: what closes it should the build fail half-way. */
type BuildProgress = { app?: FastifyInstance; releaseUpstreams?: () => Promise<void> };

export async function buildApp(config: GatewayConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const progress: BuildProgress = {};
  try {
    return await assembleApp(config, options, progress);
  } catch (error) {
    // A build can fail half-way (a setting only the built app can check, a plugin that fails to register):
    // what it started (its onClose hooks so far: its state's connection, its place in the lasting metrics,
    // its server probes; then its upstream agents and trace exporter) is closed, or a refused reload
    // would leave it behind in the process that goes on serving.
    await progress.app?.close().catch(() => undefined);
    await progress.releaseUpstreams?.().catch(() => undefined);
    throw error;
  }
}

async function assembleApp(config: GatewayConfig, options: BuildAppOptions, progress: BuildProgress): Promise<FastifyInstance> {
  const redactor = options.redactor ?? createConfigRedactor(config);
  const logger = options.logger ?? createGatewayLogger(config, redactor);
  const shutdownGraceMs = options.shutdownGraceMs ?? config.server.shutdownGraceMs;
  // OpenAI's envelope unless a route family claims a path for its own (the Messages routes do).
  const errorEnvelopes = new ErrorEnvelopes(toOpenAiErrorBody);
  // The ids every request mints (its own, its completion's), from one pool of random bytes.
  const ids = new RandomHexPool();
  const clientErrorHandler = createClientErrorResponder(errorEnvelopes);
  const app = Fastify({
    ...serverTimeoutOptions(config.server, shutdownGraceMs),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    loggerInstance: logger as FastifyBaseLogger,
    // Our own one-line-per-request log replaces fastify's two lines (see plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.server.bodyLimitBytes,
    // A client's x-request-id is kept when it is a sane token (it goes into logs and headers); else one is minted.
    requestIdHeader: false,
    genReqId: (request) => clientRequestId(request.headers['x-request-id']) ?? `req_${ids.hex(16)}`,
    childLoggerFactory: (logger, bindings) => createLazyChildLogger(logger, bindings),
    // Refused by the request intake's ShutdownRefusal instead, in the API's envelope.
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => sendFrameworkError(errorEnvelopes, error, request, reply),
  });
  progress.app = app;
  // A server of the app's own listens (the live gateway's detached one never does; it sets this up itself).
  if (!options.serverFactory) continueOnlyWithinBodyLimit(app.server, () => config.server.bodyLimitBytes);
  // A body that stops mid-way gets its 408 even when Node's connection sweep misses it; started by the intake.
  const bodyDeadlines = new BodyDeadlines(config.server.requestTimeoutMs, clientErrorHandler);
  // What requests share (resent tool lists) and what is cached from them: src/core/request-caches.ts.
  const caches = new RequestCaches();
  // The routes' request-body schemas, each compiled once for this app (ajv keeps them).
  const validators = new BodyValidators();
  registerJsonBodyParser(app, {
    maxDepth: config.server.maxJsonDepth,
    knownToolLists: new KnownToolLists({ maximumDepth: config.server.maxJsonDepth }),
    bodyDeadlines,
  });
  registerRequestBodyDecoding(app);

  const toolFormats = createToolFormatRegistry();
  const renderCall = (family: string, call: { name: string; arguments: string }) =>
    (toolFormats.get(family) ?? toolFormats.get('generic-json'))?.renderCall(call) ?? JSON.stringify(call);
  // Traces only when an endpoint is configured; otherwise no OpenTelemetry code is even loaded.
  const tracing = await loadTracing(config.telemetry, options.environment ?? process.env, version, redactor, genAiProviderName);
  const metrics = options.lasting?.metrics ?? new Metrics(() => liveStreams.size);
  if (options.lasting) {
    const liveGenerations = () => liveStreams.size;
    options.lasting.liveGenerationCounts.add(liveGenerations);
    app.addHook('onClose', async () => void options.lasting?.liveGenerationCounts.delete(liveGenerations));
  }
  // What answers each provider: found in the background once the app is ready, never delaying it.
  // What upstreams refused for a model (native tools, template rendering, the native response format) is
  // remembered for one lifetime and by one clock, wherever it is learned: src/core/refusal-memory.ts.
  const refusals = refusalMemories({ forgetAfterMs: config.server.refusalMemoryMs, now: options.now ?? Date.now });
  const servers = new UpstreamProfiles(probedProviders(config), {
    log: logger,
    redetectAfterMs: options.serverRedetectAfterMs,
    refusals,
  });
  if (options.detectServers ?? true) app.addHook('onReady', async () => void servers.start());
  app.addHook('onClose', async () => servers.close());
  const providers = new Map<string, ProviderAdapter>();
  const releaseUpstreams = async (): Promise<void> => {
    await Promise.all([...providers.values()].map((adapter) => adapter.close?.()));
    // The last spans are exported (bounded: a dead collector must not hold shutdown).
    await tracing?.shutdown();
  };
  // Closed last when the app closes (below, after its streams); at once should the build fail before that.
  progress.releaseUpstreams = releaseUpstreams;
  for (const provider of Object.values(config.providers)) {
    // Upstream failures before the first byte are counted where the pipeline's retries catch them (stream-with-retries.ts).
    const adapter = redactProviderErrors(createProviderAdapter(provider, { renderCall, caches, refusals }), redactor);
    providers.set(provider.name, tracing ? tracing.traceProvider(adapter, provider) : adapter);
  }
  const agentSyntaxes = createAgentSyntaxRegistry(toolFormats);
  const recentRepliesKept = config.debug?.recentReplies ?? 0;
  const recentReplies = recentRepliesKept > 0 ? new RecentReplies(recentRepliesKept, (text) => redactor.redact(text)) : undefined;
  const inspector = new ToolCallInspector({ config, kinds: providerKind, toolFormats, agentSyntaxes, caches, servers });
  const liveStreams = new LiveStreams(new StreamKeepAlive(config.server.streamKeepAliveMs));

  app.decorate('metrics', metrics);
  // What observes a settled request (its log line, metrics, usage row) runs at the end of the event loop's turn.
  const afterReply = new AfterReply((error) => app.log.error({ err: error }, 'recording a finished request failed'));
  app.decorate('afterReply', afterReply);
  app.addHook('onClose', async () => afterReply.flush());
  const state = createSharedState(config, logger, options.lasting);
  // Tokens and spend per key, model and day, for GET /v1/usage: in Redis when the replicas share one.
  const usageLog = state.kind === 'redis' ? state.usage : (options.lasting?.usageLog ?? new UsageLog());
  app.decorate('usageLog', usageLog);
  // How many generations this app still serves: a reloaded gateway closes a replaced app when none are left.
  app.decorate('liveGenerations', () => liveStreams.size);
  // Replaced by a reload (src/live-gateway.ts): what it still serves finishes, but nothing new starts here.
  let retired = false;
  app.decorate('retire', () => void (retired = true));
  app.decorate('isRetired', () => retired);
  if (tracing) app.decorate('tracing', tracing);
  // An upstream that failed before its first byte is counted, and its server is asked again what it is.
  const resilience: ResilienceObserver = {
    observeUpstreamError: (provider, error) => {
      metrics.observeUpstreamError(provider, error);
      servers.noticeFailure(provider, error);
    },
    observeRetry: (handover) => metrics.observeRetry(handover),
    observeFallback: (handover) => metrics.observeFallback(handover),
  };
  // Deployments balance per replica; with Redis, a target that fails on one replica rests on all (below).
  const balancer = new DeploymentBalancer();
  // One price table for chats and embeddings (the config's prices over the package's data).
  const prices = new PriceTable(config.prices);
  const pipeline = new ChatPipeline({
    config,
    kinds: providerKind,
    providers,
    toolFormats,
    agentSyntaxes,
    redactor,
    repairJson: repairJsonText,
    schemaCheck: createSchemaCheck(),
    recentReplies,
    resilience,
    caches,
    servers,
    ids,
    balancer,
    prices,
    refusals,
  });
  registerRequestContext(app);
  registerRequestLog(app);
  registerErrorEnvelope(app, errorEnvelopes);
  // Before every other onRequest hook (client keys' among them): its steps and their order are in request-intake.ts.
  registerRequestIntake(app, { bodyDeadlines, shutdownRefusal: new ShutdownRefusal(app) });
  // Before client keys: a browser's preflight carries none. Not configured, not registered (no per-request cost).
  if (config.server.cors) registerCors(app, config.server.cors);
  const keyEntries = config.server.clientKeys.map((clientKey) => ({ key: clientKey.key, access: new AccessPolicy(clientKey) }));
  // Compared like the keys (digests, constant time); never logged (configuredSecrets redacts it).
  const isScrapeToken = config.metrics?.token === undefined ? undefined : createKeyChecker([config.metrics.token]);
  // Bounded by the configured keys: only a key that passed the constant-time check is remembered.
  registerClientAuth(app, keyEntries, {
    extraOpenPaths: inspectorPagePaths,
    verifiedKeys: new VerifiedKeyMemo(keyEntries.length),
    ...(isScrapeToken ? { isScrapeToken } : {}),
  });
  if (config.deployments && state.kind === 'redis') {
    const sharing = shareDeploymentHealth(balancer, state, config.deployments, logger);
    app.addHook('onClose', async () => sharing.close());
  }
  // Connects once the app is ready (listen or inject): `--check-config` builds the app without ever connecting.
  app.addHook('onReady', async () => state.connect());
  app.addHook('onClose', async () => state.close());
  const keyLimits = new Map(config.server.clientKeys.map((clientKey) => [clientKey.name, clientKey.limits]));
  registerRateLimits(app, new RateLimits(config.server.limits, keyLimits, { state, log: logger }));
  // Budgets only when one is configured: otherwise no route runs a budget hook.
  if (config.server.budget || config.server.clientKeys.some((clientKey) => clientKey.budget)) {
    const estimates = new ReservationEstimates({
      prices,
      resolve: (model: string, provider?: string) => pipeline.resolve(model, provider),
      deployments: config.deployments,
      fallbacks: config.fallbacks,
    });
    registerBudgets(app, new BudgetLedger(state, undefined, options.lasting?.inProcessBudgets), config.server.budget, estimates);
  }
  registerLiveStreams(app, liveStreams, shutdownGraceMs);

  registerHealthRoutes(app, {
    providers: Object.keys(config.providers),
    version,
    reachable: (name) => providerAnswers(providers.get(name)),
    servers: (name) => servers.report(name),
    stateProblem: () => state.problem(),
  });
  const providerDirectory = new ProviderDirectory(config, providers);
  registerModelsRoutes(app, { pipeline, providers: providerDirectory, deployments: config.deployments });
  if (options.reload) registerAdminRoutes(app, { reload: options.reload });
  registerUsageRoutes(app, { usage: usageLog, budgets: budgetsByKey(config), pending: afterReply });
  registerChatCompletionsRoutes(app, { pipeline, liveStreams, caches, validators, ids });
  registerMessagesRoutes(app, { pipeline, liveStreams, caches, validators });
  const embeddings = new EmbeddingPipeline({
    config,
    providers: providerDirectory,
    resolve: (modelString) => pipeline.resolve(modelString),
    balancer,
    resilience,
  });
  registerEmbeddingsRoutes(app, { embeddings, validators, prices, liveStreams });
  registerToolCallsRoutes(app, { inspector, validators, recentReplies });
  registerInspectorPage(app);
  registerMetricsRoute(app, metrics, afterReply, isScrapeToken);
  // The Responses routes with their WebSocket mode (routes/responses/responses-socket.ts; 32 MB frames like
  // request bodies) in a context of their own: @fastify/websocket's two hooks and the refused-upgrade closer
  // then run for these routes only, not for every request. Registered last, so that the context inherits
  // every hook, parser and handler above (a child copies its parent's as it is created).
  const storedResponses = createStoredResponses(config, state, options.lasting);
  await app.register(async (responses) => {
    await responses.register(fastifyWebsocket, { options: { maxPayload: config.server.bodyLimitBytes }, preClose: closeSocketsForRestart });
    registerCloseRefusedUpgrades(responses);
    registerResponsesRoutes(responses, {
      pipeline,
      liveStreams,
      store: storedResponses,
      caches,
      validators,
      maxJsonDepth: config.server.maxJsonDepth,
      bodyLimitBytes: config.server.bodyLimitBytes,
      maxConnectionMs: config.server.webSocketMaxConnectionMs,
    });
  });

  app.addHook('onClose', releaseUpstreams);
  return app;
}

/** Each key's budget (its own, else the server's), by name; without keys, the one anonymous client. */
function budgetsByKey(config: GatewayConfig): Map<string, Budget | undefined> {
  const { clientKeys, budget } = config.server;
  if (clientKeys.length === 0) return new Map([['anonymous', budget]]);
  return new Map(clientKeys.map((clientKey) => [clientKey.name, clientKey.budget ?? budget]));
}
