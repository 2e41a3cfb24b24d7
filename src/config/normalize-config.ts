/** Fills defaults into a validated config file and produces the GatewayConfig the app runs on. */
import type { ConfigFile, ProviderEntry } from './config-schema.js';
import { firstPartyBaseUrls } from '../core/provider-types.js';
import { defaultRefusalMemoryMs } from '../core/refusal-memory.js';
import { normalizeClientKeys } from './normalize-client-keys.js';
import { normalizeAzureOpenAi, normalizeBedrock, normalizeVertex } from './normalize-cloud-providers.js';
import type {
  AgentFormatRule,
  AgentFormatSettings,
  GatewayConfig,
  ProviderConfig,
  TimeoutSettings,
  UpstreamLimitSettings,
} from './config-types.js';
import type { ClientKey, Deployment, RetrySettings } from './config-types.js';
import { ConfigError } from './config-error.js';
import { defaultFallbackOn, normalizeFallbacks } from './normalize-fallbacks.js';
import { normalizeDeployments } from './normalize-deployments.js';
import { normalizePrices } from './normalize-prices.js';
import { normalizeState } from './normalize-state.js';

export const defaultTimeouts: TimeoutSettings = {
  connectMs: 10_000,
  // Non-streaming generations can take minutes before the first header byte.
  headersMs: 600_000,
  bodyMs: 300_000,
};

/** 64 MiB whole and 16 MiB per event: hundreds of times a long real reply, far below what hurts the process. */
export const defaultUpstreamLimits: UpstreamLimitSettings = {
  maxResponseBytes: 64 * 1024 * 1024,
  maxEventBytes: 16 * 1024 * 1024,
};

/**
 * Off unless configured: the SDKs clients use already retry (openai and anthropic: twice), and retries on
 * both sides multiply. The delays apply once `count` is set: 250 ms, 500 ms, … up to 8 s per wait.
 */
export const defaultRetries: RetrySettings = { count: 0, initialDelayMs: 250, maxDelayMs: 8_000 };

export const defaultServer = {
  host: '127.0.0.1',
  port: 8080,
  bodyLimitBytes: 32 * 1024 * 1024,
  // Far beyond any real request (deep JSON Schemas reach 20-30), far below what overflows a recursive walk.
  maxJsonDepth: 128,
  logLevel: 'info',
  // A client that stops mid-request must not hold its socket forever (slow-loris); streamed replies are not cut by these.
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Proxies and load balancers commonly cut connections idle for 30-60 s; a model may think for minutes.
  streamKeepAliveMs: 15_000,
  shutdownGraceMs: 10_000,
  // OpenAI's own limit for a Responses WebSocket connection, which its clients must already handle.
  webSocketMaxConnectionMs: 60 * 60_000,
  // Generous: a long non-streaming generation takes minutes; an upstream that streams forever must not hold the request forever.
  wholeReplyTimeoutMs: 10 * 60_000,
  refusalMemoryMs: defaultRefusalMemoryMs,
};

/** Codex CLI names itself in both (`codex_exec/0.171.0 …`, `originator: codex_cli_rs`), as captured on the wire. */
export const defaultAgentFormatRules: readonly AgentFormatRule[] = [
  { header: 'user-agent', contains: 'codex', format: 'codex' },
  { header: 'originator', contains: 'codex', format: 'codex' },
];

/** Rules given in the file replace the defaults, so an operator can drop the Codex rule. */
export function normalizeAgentFormats(settings: ConfigFile['agentFormats']): AgentFormatSettings {
  const rules = settings?.rules ?? defaultAgentFormatRules;
  return {
    rules: rules.map((rule) => ({ header: rule.header.toLowerCase(), contains: rule.contains, format: rule.format })),
    default: settings?.default ?? 'openai',
  };
}

export type ServerOverrides = { host?: string; port?: number };

function firstPartyBaseUrlOf(type: string): string | undefined {
  return Object.hasOwn(firstPartyBaseUrls, type) ? firstPartyBaseUrls[type as keyof typeof firstPartyBaseUrls] : undefined;
}

export function normalizeProvider(name: string, settings: ProviderEntry): ProviderConfig {
  const provider: ProviderConfig = {
    name,
    type: settings.type,
    baseUrl: String(settings.baseUrl ?? firstPartyBaseUrlOf(settings.type) ?? '').replace(/\/+$/, ''),
    headers: settings.headers ?? {},
    timeouts: { ...defaultTimeouts, ...settings.timeouts },
    limits: { ...defaultUpstreamLimits, ...settings.limits },
    toolCalling: settings.toolCalling ?? 'auto',
    models: settings.models ?? {},
  };
  // Only when configured: an absent `retries` is the default (off), and the provider stays as it was.
  if (settings.retries) provider.retries = { ...defaultRetries, ...settings.retries };
  if (typeof settings.maxConnections === 'number') provider.maxConnections = settings.maxConnections;
  if (typeof settings.apiKey === 'string' && settings.apiKey !== '') provider.apiKey = settings.apiKey;
  if (typeof settings.script === 'string') provider.script = settings.script;
  if (typeof settings.server === 'string') provider.server = settings.server;
  if (typeof settings.apiVersion === 'string') provider.apiVersion = settings.apiVersion;
  if (settings.type === 'azure-openai') normalizeAzureOpenAi(provider, settings);
  if (settings.type === 'vertex') normalizeVertex(provider, settings);
  if (settings.type === 'bedrock') normalizeBedrock(provider, settings);
  if (typeof settings.defaultMaxTokens === 'number') provider.defaultMaxTokens = settings.defaultMaxTokens;
  return provider;
}

type ServerTimes = Pick<
  GatewayConfig['server'],
  | 'requestTimeoutMs'
  | 'headersTimeoutMs'
  | 'streamKeepAliveMs'
  | 'shutdownGraceMs'
  | 'webSocketMaxConnectionMs'
  | 'wholeReplyTimeoutMs'
  | 'refusalMemoryMs'
>;

function normalizeServerTimes(server: NonNullable<ConfigFile['server']>): ServerTimes {
  const requestTimeoutMs = server.requestTimeoutMs ?? defaultServer.requestTimeoutMs;
  const headersTimeoutMs = server.headersTimeoutMs ?? defaultServer.headersTimeoutMs;
  return {
    requestTimeoutMs,
    // Node refuses a headers timeout longer than a (non-zero) request timeout.
    headersTimeoutMs: requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs,
    streamKeepAliveMs: server.streamKeepAliveMs ?? defaultServer.streamKeepAliveMs,
    shutdownGraceMs: server.shutdownGraceMs ?? defaultServer.shutdownGraceMs,
    webSocketMaxConnectionMs: server.webSocketMaxConnectionMs ?? defaultServer.webSocketMaxConnectionMs,
    wholeReplyTimeoutMs: server.wholeReplyTimeoutMs ?? defaultServer.wholeReplyTimeoutMs,
    refusalMemoryMs: server.refusalMemoryMs ?? defaultServer.refusalMemoryMs,
  };
}

export function normalizeConfig(file: ConfigFile, overrides: ServerOverrides): GatewayConfig {
  const server = file.server ?? {};
  const clientKeys = normalizeClientKeys(server.apiKeys, { deployments: file.deployments, aliases: file.aliases });
  refuseMetricsTokenAsClientKey(file.metrics?.token, clientKeys);
  const providers: Record<string, ProviderConfig> = {};
  for (const [name, settings] of Object.entries(file.providers ?? {})) providers[name] = normalizeProvider(name, settings);
  return {
    server: {
      host: overrides.host ?? server.host ?? defaultServer.host,
      port: overrides.port ?? server.port ?? defaultServer.port,
      apiKeys: clientKeys.map((clientKey) => clientKey.key),
      clientKeys,
      bodyLimitBytes: server.bodyLimitBytes ?? defaultServer.bodyLimitBytes,
      maxJsonDepth: server.maxJsonDepth ?? defaultServer.maxJsonDepth,
      logLevel: server.logLevel ?? defaultServer.logLevel,
      ...normalizeServerTimes(server),
      ...(server.limits ? { limits: server.limits } : {}),
      ...(server.budget ? { budget: server.budget } : {}),
      ...(server.cors ? { cors: { ...server.cors, origins: [...server.cors.origins] } } : {}),
    },
    providers,
    // Checked against the providers and aliases, so that `--check-config` names a bad key or target.
    fallbacks: normalizeFallbacks(file.fallbacks, providers, file.aliases, new Set(Object.keys(file.deployments ?? {}))),
    fallbackOn: file.fallbackOn ?? defaultFallbackOn,
    agentFormats: normalizeAgentFormats(file.agentFormats),
    debug: { recentReplies: file.debug?.recentReplies ?? 0 },
    ...(file.telemetry ? { telemetry: { ...file.telemetry, headers: file.telemetry.headers ?? {} } } : {}),
    ...(file.metrics?.token ? { metrics: { token: file.metrics.token } } : {}),
    aliases: new Map(Object.entries(file.aliases ?? {})),
    ...deploymentsOf(file, providers),
    ...(file.prices ? { prices: normalizePrices(file.prices, file.deployments, file.aliases, Object.keys(providers)) } : {}),
    state: normalizeState(file.state),
  };
}

/**
 * The metrics token grants GET /metrics only; the same text as a client key would be that key everywhere
 * else and the token on /metrics, one secret with two meanings. The message names the key, never the text.
 */
function refuseMetricsTokenAsClientKey(token: string | undefined, clientKeys: readonly ClientKey[]): void {
  const same = token === undefined ? undefined : clientKeys.find((clientKey) => clientKey.key === token);
  if (same) throw new ConfigError([`metrics.token: the same text as the client key '${same.name}'; give the scraper a token of its own`]);
}

/** Only when some are configured: without them no request does any balancing work. */
function deploymentsOf(file: ConfigFile, providers: Record<string, ProviderConfig>): { deployments?: ReadonlyMap<string, Deployment> } {
  const deployments = normalizeDeployments(file.deployments, providers, file.aliases);
  return deployments ? { deployments } : {};
}
