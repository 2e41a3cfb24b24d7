/** LiveGateway's reloads in one process: which config a reload reads when signals arrive during another. */
import type { RequestListener, Server } from 'node:http';
import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../src/config/config-types.js';
import { LiveGateway } from '../src/live-gateway.js';

/** The file's contents as the test edits them; a config here is only its version. */
let fileVersion = 1;
/** Holds the next load after it read the file, until the test releases it. */
let holdLoad: Promise<void> | undefined;
let gateway: LiveGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

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
      app.get('/version', async () => (config as unknown as { version: number }).version);
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
