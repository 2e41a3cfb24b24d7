/** LiveGateway's reloads in one process: which config a reload reads when signals arrive during another. */
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../src/config/config-types.js';
import { buildApp, createConfigRedactor } from '../src/app.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../src/config/validate-config-file.js';
import { LiveGateway } from '../src/live-gateway.js';
import { rawExchange } from './helpers/raw-exchange.js';

/** The file's contents as the test edits them; a config here is only its version. */
let fileVersion = 1;
/** Holds the next load after it read the file, until the test releases it. */
let holdLoad: Promise<void> | undefined;
let gateway: LiveGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  failingVersions.clear();
  fileVersion = 1;
  closedApps = 0;
});

/** Versions whose app fails as it starts (an onReady hook throws), and how many apps were closed. */
const failingVersions = new Set<number>();
let closedApps = 0;

function liveGateway(): LiveGateway {
  return new LiveGateway({
    loadConfig: async () => {
      const version = fileVersion;
      await holdLoad;
      return { version } as unknown as GatewayConfig;
    },
    buildApp: async (config, serverFactory: (handler: RequestListener) => Server) => {
      const app = Fastify({ serverFactory });
      let retired = false;
      app.decorate('retire', () => void (retired = true));
      app.decorate('isRetired', () => retired);
      const { version } = config as unknown as { version: number };
      app.get('/version', async () => version);
      app.addHook('onClose', async () => void closedApps++);
      if (failingVersions.has(version))
        app.addHook('onReady', async () => {
          throw new Error('the state store refused the connection');
        });
      return app;
    },
    log: pino({ level: 'silent' }),
    serverOptions: {},
  });
}

describe('LiveGateway.reload', () => {
  it('a reload asked for during another reads the file again after it: the later edit is not lost', async () => {
    gateway = liveGateway();
    await gateway.start({ version: 0 } as unknown as GatewayConfig);
    let release = () => {};
    holdLoad = new Promise((resolve) => (release = resolve));
    const first = gateway.reload();
    // The first reload has read version 1; the file is edited and the signal sent again while it runs.
    await new Promise((resolve) => setImmediate(resolve));
    fileVersion = 2;
    const second = gateway.reload();
    const third = gateway.reload();
    expect(third).toBe(second);
    release();
    holdLoad = undefined;
    expect(await first).toEqual({ reloaded: true });
    expect(await second).toEqual({ reloaded: true });
    const served = await gateway.app.inject({ method: 'GET', url: '/version' });
    expect(served.body).toBe('2');
  });
});

describe('LiveGateway retiring an app', () => {
  it('marks the replaced app retired at once (its WebSocket connections start no new turn), not the new one', async () => {
    gateway = liveGateway();
    const first = await gateway.start({ version: 0 } as unknown as GatewayConfig);
    expect(await gateway.reload()).toEqual({ reloaded: true });
    expect(first.isRetired?.()).toBe(true);
    expect(gateway.app.isRetired?.()).toBe(false);
  });
});

describe('LiveGateway reload whose app fails to start', () => {
  it('closes the half-started app and keeps serving with the old one', async () => {
    gateway = liveGateway();
    await gateway.start({ version: 0 } as unknown as GatewayConfig);
    failingVersions.add(1);
    expect(await gateway.reload()).toEqual({
      reloaded: false,
      refusal: 'reload_failed',
      reason: 'the state store refused the connection',
    });
    expect(closedApps).toBe(1);
    expect((await gateway.app.inject({ method: 'GET', url: '/version' })).body).toBe('0');
    expect(gateway.app.isRetired?.()).toBe(false);
  });
});

describe('POST /admin/reload whose new app fails to start', () => {
  const validateConfigFile = compileConfigFileValidator();
  const upstreamKey = 'sk-reloaded-upstream-7301';
  /** Valid files: the running one, and the edited one with a provider key (a secret of the new config only). */
  const configFile = (withKey: boolean) =>
    normalizeConfig(
      validateConfigFile({
        providers: { local: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', ...(withKey ? { apiKey: upstreamKey } : {}) } },
      }),
      { host: '127.0.0.1', port: 0 },
    );

  it('answers 500 reload_failed with the cause (the new secrets redacted), and the running app goes on serving', async () => {
    const live: LiveGateway = new LiveGateway({
      loadConfig: async () => configFile(true),
      buildApp: async (config, serverFactory) => {
        const app = await buildApp(config, {
          logger: pino({ level: 'silent' }),
          serverFactory,
          reload: () => live.reload(),
          detectServers: false,
        });
        // Something only starting the app finds out, naming the new config's secret in its message.
        if (config.providers.local?.apiKey)
          app.addHook('onReady', async () => {
            throw new Error(`the state store refused the connection (sent ${upstreamKey})`);
          });
        return app;
      },
      log: pino({ level: 'silent' }),
      serverOptions: {},
      redactorFor: createConfigRedactor,
    });
    gateway = live;
    const running = await live.start(configFile(false));
    const response = await live.app.inject({ method: 'POST', url: '/admin/reload' });
    expect(response.statusCode).toBe(500);
    const { error } = response.json<{ error: { code: string; type: string; message: string } }>();
    expect(error).toMatchObject({ code: 'reload_failed', type: 'server_error' });
    expect(error.message).toContain('the running config is kept');
    expect(error.message).toContain('the state store refused the connection');
    expect(error.message).not.toContain(upstreamKey);
    expect(live.app).toBe(running);
    expect((await live.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe('LiveGateway and Expect: 100-continue', () => {
  it("answers a body declared over the current app's limit with its 413 and no 100 Continue, and invites one within it", async () => {
    const live = new LiveGateway({
      loadConfig: async () => ({}) as GatewayConfig,
      buildApp: async (_config, serverFactory) => {
        const app = Fastify({ serverFactory, bodyLimit: 1024 });
        app.post('/echo', async (request) => request.body);
        return app;
      },
      log: pino({ level: 'silent' }),
      serverOptions: {},
    });
    gateway = live;
    await live.start({} as GatewayConfig);
    await new Promise<void>((resolve) => live.server.listen(0, '127.0.0.1', resolve));
    const port = (live.server.address() as AddressInfo).port;
    const request = (length: number, body = '') =>
      rawExchange(
        port,
        `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
          `Expect: 100-continue\r\nConnection: close\r\n\r\n${body}`,
      );
    expect(await request(100_000)).toMatch(/^HTTP\/1\.1 413 /);
    expect(await request(8, '{"a":12}')).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 [\s\S]*\{"a":12\}$/);
  });
});

describe('LiveGateway reload of a file that changes the listening socket', () => {
  const validateConfigFile = compileConfigFileValidator();
  const configWith = (server: Record<string, unknown>) => normalizeConfig(validateConfigFile({ server, providers: {} }), {});

  it('applies the rest and logs which socket settings stay until a restart (nothing when none changed)', async () => {
    const lines: { level: number; msg: string; kept?: string[] }[] = [];
    let next = configWith({ port: 8080, headersTimeoutMs: 5_000 });
    gateway = new LiveGateway({
      loadConfig: async () => next,
      buildApp: async (_config, serverFactory) => Fastify({ serverFactory }),
      log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) }),
      serverOptions: {},
    });
    await gateway.start(configWith({ port: 8080, headersTimeoutMs: 5_000 }));
    expect(await gateway.reload()).toEqual({ reloaded: true });
    expect(lines.filter((line) => line.level === 40)).toEqual([]);
    next = configWith({ port: 9090, headersTimeoutMs: 5_000, logLevel: 'debug' });
    expect(await gateway.reload()).toEqual({ reloaded: true });
    expect(lines.filter((line) => line.level === 40)).toEqual([
      expect.objectContaining({
        msg: 'config reloaded without its listening-socket settings: they change on a restart',
        kept: ['server.port 8080 → 9090'],
      }),
    ]);
  });
});
