/**
 * The gateway's configuration for the bench: one provider per fake reply, so that the model name
 * alone picks both the lane and what the fake upstream answers (`/<reply-kind>/v1`).
 */
import { writeFileSync } from 'node:fs';
import type { ReplyKind } from './fake-replies.js';

/** A model of the hermes family, so the prompted lane picks the Hermes syntax. */
export const promptedModel = 'qwen2.5-7b-instruct';
export const nativeModel = 'gpt-4o-mini';

export const gatewayModels = {
  native: `native/${nativeModel}`,
  prompted: `prompted/${promptedModel}`,
  nativeStream: `native-stream/${nativeModel}`,
  promptedStream: `prompted-stream/${promptedModel}`,
  idle: `idle/${nativeModel}`,
  nativeAgentTurn: `native-agent/${nativeModel}`,
  promptedAgentTurn: `prompted-agent/${promptedModel}`,
} as const;

type ProviderSetting = { reply: ReplyKind; toolCalling: 'native' | 'prompted'; maxConnections?: number };

const providers: Record<string, ProviderSetting> = {
  native: { reply: 'tool-call', toolCalling: 'native' },
  prompted: { reply: 'hermes', toolCalling: 'prompted' },
  'native-stream': { reply: 'chunks-500', toolCalling: 'native' },
  'prompted-stream': { reply: 'chunks-500', toolCalling: 'prompted' },
  'native-agent': { reply: 'chunks-1000', toolCalling: 'native' },
  'prompted-agent': { reply: 'chunks-1000', toolCalling: 'prompted' },
  // 1,000 idle streams hold 1,000 upstream connections: above the default pool of 256.
  idle: { reply: 'hold', toolCalling: 'native', maxConnections: 4096 },
};

/** The key the cost rows' client sends. */
export const benchClientKey = 'sk-bench-0123456789abcdef';

/** Limits far above what the bench can send in a minute: counted on every request, never refusing one. */
const generousLimits = { requestsPerMinute: 1_000_000_000, tokensPerMinute: 1_000_000_000_000, concurrentStreams: 1_000_000 };

/**
 * The "keyed, rate-limited, metered" setting: a key with a policy object (model globs, a
 * tool rule, per-key limits) and server-wide limits, state in-process; metrics are always on.
 */
const meteredServer = {
  apiKeys: [
    {
      key: benchClientKey,
      name: 'bench-team',
      models: Object.keys(providers).map((name) => `${name}/*`),
      tools: { deny: ['delete_*'] },
      limits: generousLimits,
    },
  ],
  limits: generousLimits,
};

export type GatewayConfigVariant =
  { type: 'plain' } | { type: 'metered' } | { type: 'metered-traced'; otlpEndpoint: string } | { type: 'team' } | { type: 'operations' };

/**
 * Issue 28's "deployments, prices and a budget configured": the native model's name is a deployment over
 * two targets (the same fake behind two providers), every model is priced, and the key has a budget it
 * never reaches; so a request pays for the balancer, the pricing stage, and the budget's check and record.
 */
function addDeploymentsAndPrices(config: Record<string, unknown>, upstreamUrl: string): void {
  const providersOf = config.providers as Record<string, Record<string, unknown>>;
  providersOf['native-b'] = { ...providersOf.native, baseUrl: `${upstreamUrl}/tool-call/v1` };
  config.deployments = {
    [gatewayModels.native]: { strategy: 'least-busy', targets: [{ model: gatewayModels.native }, { model: `native-b/${nativeModel}` }] },
  };
  config.prices = { '*': { input: 0.15, output: 0.6 } };
}

/** The issue's own measure: the plain gateway with deployments, prices and a (server-wide) budget, and nothing else. */
function addOperations(config: Record<string, unknown>, upstreamUrl: string): void {
  addDeploymentsAndPrices(config, upstreamUrl);
  (config.server as Record<string, unknown>).budget = { usd: 1_000_000_000, period: 'month' };
}

function addTeamOperations(config: Record<string, unknown>, upstreamUrl: string): void {
  addDeploymentsAndPrices(config, upstreamUrl);
  const server = config.server as { apiKeys: Record<string, unknown>[] };
  server.apiKeys = server.apiKeys.map((key) => ({
    ...key,
    models: [...(key.models as string[]), 'native-b/*'],
    budget: { usd: 1_000_000_000, period: 'month' },
  }));
}

export function buildGatewayConfig(
  upstreamUrl: string,
  logLevel: string,
  variant: GatewayConfigVariant = { type: 'plain' },
): Record<string, unknown> {
  const entries = Object.entries(providers).map(([name, setting]) => {
    const provider: Record<string, unknown> = {
      type: 'openai-compatible',
      baseUrl: `${upstreamUrl}/${setting.reply}/v1`,
      toolCalling: setting.toolCalling,
    };
    if (setting.maxConnections) provider.maxConnections = setting.maxConnections;
    return [name, provider];
  });
  const config: Record<string, unknown> = { server: { host: '127.0.0.1', apiKeys: [], logLevel }, providers: Object.fromEntries(entries) };
  if (variant.type !== 'plain' && variant.type !== 'operations') config.server = { host: '127.0.0.1', logLevel, ...meteredServer };
  if (variant.type === 'metered-traced') config.telemetry = { otlpEndpoint: variant.otlpEndpoint, serviceName: 'interlingua-bench' };
  if (variant.type === 'team') addTeamOperations(config, upstreamUrl);
  if (variant.type === 'operations') addOperations(config, upstreamUrl);
  return config;
}

export function writeGatewayConfig(path: string, upstreamUrl: string, logLevel: string, variant?: GatewayConfigVariant): string {
  writeFileSync(path, JSON.stringify(buildGatewayConfig(upstreamUrl, logLevel, variant), null, 2));
  return path;
}
