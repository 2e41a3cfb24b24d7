/** Fills defaults into a validated config file and produces the GatewayConfig the app runs on. */
import type { ProviderType } from '../core/resolved-model.js';
import { normalizeClientKeys, type RawClientKey } from './normalize-client-keys.js';
import type { LimitSettings, AgentFormatRule, AgentFormatSettings, GatewayConfig, ModelSettings, ProviderConfig, TimeoutSettings, ToolCallingSetting } from './config-types.js';
import type { ConfigFile } from './validate-config-file.js';

export const defaultTimeouts: TimeoutSettings = {
  connectMs: 10_000,
  // Non-streaming generations can take minutes before the first header byte.
  headersMs: 600_000,
  bodyMs: 300_000,
};

export const defaultServer = {
  host: '127.0.0.1',
  port: 8080,
  bodyLimitBytes: 32 * 1024 * 1024,
  logLevel: 'info',
};

/** Codex CLI names itself in both (`codex_exec/0.171.0 …`, `originator: codex_cli_rs`); see clients.md §1.5. */
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

export function normalizeProvider(name: string, settings: Record<string, unknown>): ProviderConfig {
  const timeouts = (settings.timeouts ?? {}) as Partial<TimeoutSettings>;
  const provider: ProviderConfig = {
    name,
    type: settings.type as ProviderType,
    baseUrl: String(settings.baseUrl).replace(/\/+$/, ''),
    headers: (settings.headers ?? {}) as Record<string, string>,
    timeouts: { ...defaultTimeouts, ...timeouts },
    toolCalling: (settings.toolCalling ?? 'auto') as ToolCallingSetting,
    models: (settings.models ?? {}) as Record<string, ModelSettings>,
  };
  if (typeof settings.maxConnections === 'number') provider.maxConnections = settings.maxConnections;
  if (typeof settings.apiKey === 'string' && settings.apiKey !== '') provider.apiKey = settings.apiKey;
  if (typeof settings.defaultMaxTokens === 'number') provider.defaultMaxTokens = settings.defaultMaxTokens;
  return provider;
}

export function normalizeConfig(file: ConfigFile, overrides: ServerOverrides): GatewayConfig {
  const server = file.server ?? {};
  const clientKeys = normalizeClientKeys(server.apiKeys as RawClientKey[] | undefined);
  const providers: Record<string, ProviderConfig> = {};
  for (const [name, settings] of Object.entries(file.providers ?? {})) providers[name] = normalizeProvider(name, settings);
  return {
    server: {
      host: overrides.host ?? (server.host as string | undefined) ?? defaultServer.host,
      port: overrides.port ?? (server.port as number | undefined) ?? defaultServer.port,
      apiKeys: clientKeys.map((clientKey) => clientKey.key),
      clientKeys,
      bodyLimitBytes: (server.bodyLimitBytes as number | undefined) ?? defaultServer.bodyLimitBytes,
      logLevel: (server.logLevel as string | undefined) ?? defaultServer.logLevel,
      ...(server.limits ? { limits: server.limits as LimitSettings } : {}),
    },
    providers,
    agentFormats: normalizeAgentFormats(file.agentFormats),
    aliases: new Map(Object.entries(file.aliases ?? {})),
  };
}
