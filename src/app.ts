/**
 * buildApp(config): the composition root, and the only file that sees routes, providers and tool
 * formats together. Everything else depends on the neutral core.
 */
import { randomHex } from './core/random-id.js';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino, { type Logger as PinoLogger } from 'pino';
import { createProviderAdapter } from '../providers/index.js';
import { registerChatCompletionsRoutes } from '../routes/chat-completions/index.js';
import { registerEmbeddingsRoutes } from '../routes/embeddings/index.js';
import { registerHealthRoutes } from '../routes/health/index.js';
import { registerMessagesRoutes } from '../routes/messages/index.js';
import { registerModelsRoutes } from '../routes/models/index.js';
import { registerResponsesRoutes } from '../routes/responses/index.js';
import { createAgentSyntaxRegistry } from '../tool-formats/agent-syntaxes/index.js';
import { createToolFormatRegistry } from '../tool-formats/index.js';
import type { GatewayConfig } from './config/config-types.js';
import { silentLogger } from './core/logger.js';
import type { ProviderAdapter } from './core/provider-adapter.js';
import { AccessPolicy } from './pipeline/access-policy.js';
import { ChatPipeline } from './pipeline/chat-pipeline.js';
import { registerClientAuth } from './plugins/client-auth.js';
import { registerErrorEnvelope } from './plugins/error-envelope.js';
import { registerJsonBodyParser } from './plugins/json-body-parser.js';
import { LiveStreams, registerLiveStreams } from './plugins/live-streams.js';
import { createLazyChildLogger } from './plugins/lazy-child-logger.js';
import { Metrics, registerMetricsRoute } from './plugins/metrics.js';
import { RateLimits, registerRateLimits } from './plugins/rate-limits.js';
import { registerRequestLog } from './plugins/request-log.js';
import { version } from './version.js';

export type BuildAppOptions = {
  /** A pino logger; defaults to one at the configured level. */
  logger?: PinoLogger;
  /** How long shutdown waits for live streams before aborting them. */
  shutdownGraceMs?: number;
};

const requestIdPattern = /^[\w.:@+=-]{1,128}$/;

function clientRequestId(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && requestIdPattern.test(value) ? value : undefined;
}

/** A provider is reachable when it lists its models in time (one that cannot list is taken as reachable). */
async function providerAnswers(adapter: ProviderAdapter | undefined): Promise<boolean> {
  if (!adapter) return false;
  if (!adapter.listModels) return true;
  await adapter.listModels({ signal: AbortSignal.timeout(2_000), requestId: 'readiness', log: silentLogger });
  return true;
}

export async function buildApp(config: GatewayConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const logger = options.logger ?? pino({ level: config.server.logLevel });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Our own one-line-per-request log replaces fastify's two lines (see plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.server.bodyLimitBytes,
    // A client's x-request-id is kept when it is a sane token (it goes into logs and headers); else one is minted.
    requestIdHeader: false,
    genReqId: (request) => clientRequestId(request.headers['x-request-id']) ?? `req_${randomHex(16)}`,
    childLoggerFactory: (logger, bindings) => createLazyChildLogger(logger, bindings),
    return503OnClosing: true,
  });
  registerJsonBodyParser(app);
  // Every reply says which request it answers (streams write it in their own head).
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });

  const providers = new Map<string, ProviderAdapter>();
  for (const provider of Object.values(config.providers)) providers.set(provider.name, createProviderAdapter(provider));
  const toolFormats = createToolFormatRegistry();
  const pipeline = new ChatPipeline({ config, providers, toolFormats, agentSyntaxes: createAgentSyntaxRegistry(toolFormats) });
  const liveStreams = new LiveStreams();

  const metrics = new Metrics(() => liveStreams.size);
  app.decorate('metrics', metrics);
  registerRequestLog(app);
  registerErrorEnvelope(app);
  registerClientAuth(app, config.server.clientKeys.map((clientKey) => ({ key: clientKey.key, access: new AccessPolicy(clientKey) })));
  registerRateLimits(app, new RateLimits(config.server.limits, new Map(config.server.clientKeys.map((clientKey) => [clientKey.name, clientKey.limits]))));
  registerLiveStreams(app, liveStreams, options.shutdownGraceMs ?? 10_000);

  registerHealthRoutes(app, { providers: Object.keys(config.providers), version, reachable: (name) => providerAnswers(providers.get(name)) });
  registerModelsRoutes(app, { pipeline });
  registerChatCompletionsRoutes(app, { pipeline, liveStreams });
  registerResponsesRoutes(app, { pipeline, liveStreams });
  registerMessagesRoutes(app, { pipeline, liveStreams });
  registerEmbeddingsRoutes(app, { pipeline });
  registerMetricsRoute(app, metrics);

  app.addHook('onClose', async () => {
    await Promise.all([...providers.values()].map((adapter) => adapter.close?.()));
  });
  return app;
}
