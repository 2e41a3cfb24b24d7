/** Builds the gateway app from a config object and listens on 127.0.0.1:0, silently, for end-to-end tests. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import type { GatewayConfig } from '../../src/config/config-types.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

/** A config file's shape, as a test writes it (validated like a real file). */
export type TestConfigFile = {
  server?: Record<string, unknown>;
  providers: Record<string, Record<string, unknown>>;
  aliases?: Record<string, string>;
  fallbacks?: Record<string, string[]>;
  deployments?: Record<string, Record<string, unknown>>;
  prices?: Record<string, Record<string, number>>;
  fallbackOn?: (number | string)[];
  debug?: Record<string, unknown>;
  state?: Record<string, unknown>;
  telemetry?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
};

export type StartedGateway = {
  baseUrl: string;
  app: FastifyInstance;
  config: GatewayConfig;
  /** The real `openai` client pointed at the gateway, its retries off. */
  client(apiKey?: string): OpenAI;
  close(): Promise<void>;
};

export async function startGateway(
  file: TestConfigFile,
  options: {
    shutdownGraceMs?: number;
    environment?: Record<string, string | undefined>;
    /** Off unless asked: detection's probes would otherwise reach the test's fake upstreams (see BuildAppOptions). */
    detectServers?: boolean;
    serverRedetectAfterMs?: number;
    /** The clock the gateway's refusal memories read (see BuildAppOptions). */
    now?: () => number;
  } = {},
): Promise<StartedGateway> {
  const config = normalizeConfig(validateConfigFile(file), { host: '127.0.0.1', port: 0 });
  // Never the test process's own OTEL_* variables: a test that wants them says so.
  const app = await buildApp(config, {
    logger: pino({ level: 'silent' }),
    shutdownGraceMs: options.shutdownGraceMs ?? 2_000,
    environment: options.environment ?? {},
    detectServers: options.detectServers ?? false,
    ...(options.serverRedetectAfterMs === undefined ? {} : { serverRedetectAfterMs: options.serverRedetectAfterMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    app,
    config,
    client: (apiKey = 'test-client-key') => new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0 }),
    close: () => app.close(),
  };
}

/** A provider entry with test-friendly timeouts (a few seconds, never the production minutes). */
export function testProvider(type: string, baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type, baseUrl, timeouts: { connectMs: 2_000, headersMs: 10_000, bodyMs: 10_000 }, ...extra };
}

/** One provider's server as /ready says it (src/core/server-directory.ts `ServerReport`). */
export type ReadyServer = { server?: string; version?: string; found: string };

/**
 * Detection runs in the background once the gateway is ready (started with `detectServers: true`): polls
 * /ready until no provider's server is pending and `until` holds, and returns its `servers`.
 */
export async function waitForServerDetection(
  gateway: StartedGateway,
  until: (servers: Record<string, ReadyServer>) => boolean = () => true,
): Promise<Record<string, ReadyServer>> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const ready = (await (await fetch(`${gateway.baseUrl}/ready`)).json()) as { servers?: Record<string, ReadyServer> };
    const servers = ready.servers;
    if (servers && Object.values(servers).every((report) => report.found !== 'pending') && until(servers)) return servers;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('server detection did not finish in 5 s');
}
