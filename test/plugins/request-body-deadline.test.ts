/**
 * Hundreds of request bodies stalled at once are each answered 408 and closed on time, by the
 * gateway's own deadline, even with Node's connection sweep for the request timeout switched off.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

/** A port nothing listens on: no request may reach an upstream. */
const unusedUpstream = 'http://127.0.0.1:9/v1';

type StalledClient = { closedAfterMs?: number; received: string; socket: net.Socket };

/** Opens `count` connections that each send their headers and the start of a 1,000-byte body, then nothing. */
function stallBodies(baseUrl: string, count: number, path = '/v1/chat/completions'): StalledClient[] {
  const port = Number(new URL(baseUrl).port);
  const started = Date.now();
  return Array.from({ length: count }, () => {
    const socket = net.connect(port, '127.0.0.1');
    const client: StalledClient = { received: '', socket };
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => (client.received += chunk.toString()));
    socket.on('close', () => (client.closedAfterMs = Date.now() - started));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":"local/m",`,
    );
    return client;
  });
}

/** Resolves once every client's socket is closed, or after `boundMs` (which ends a failing test). */
async function waitForClose(clients: StalledClient[], boundMs: number): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline && clients.some((client) => client.closedAfterMs === undefined)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('hundreds of stalled request bodies', () => {
  let gateway: StartedGateway | undefined;
  let clients: StalledClient[] = [];

  afterEach(async () => {
    for (const client of clients) client.socket.destroy();
    await gateway?.close();
  });

  async function start(requestTimeoutMs: number): Promise<StartedGateway> {
    gateway = await startGateway({
      server: { requestTimeoutMs },
      providers: { local: testProvider('openai-compatible', unusedUpstream, { toolCalling: 'native' }) },
    });
    return gateway;
  }

  it('answers each of 400 stalled bodies 408 in the API envelope and closes it, within the timeout and a margin', async () => {
    const { baseUrl } = await start(1_000);
    clients = [...stallBodies(baseUrl, 300), ...stallBodies(baseUrl, 100, '/v1/messages')];
    await waitForClose(clients, 10_000);
    const closed = clients.filter((client) => client.closedAfterMs !== undefined);
    expect(closed).toHaveLength(400);
    for (const client of clients) {
      expect(client.closedAfterMs).toBeGreaterThanOrEqual(900);
      expect(client.closedAfterMs).toBeLessThan(4_000);
      expect(client.received).toMatch(/^HTTP\/1\.1 408 /);
    }
    // Each in the envelope of the API its path names.
    expect(clients[0]?.received).toContain('"code":"request_timeout"');
    expect(clients[399]?.received).toContain('"type":"error"');
  }, 30_000);

  it('closes them on its own when Node does not sweep for the request timeout', async () => {
    const started = await start(800);
    // Node's sweep then checks headers only: a stalled body is caught by the gateway's deadline or by nothing.
    started.app.server.requestTimeout = 0;
    clients = stallBodies(started.baseUrl, 300);
    await waitForClose(clients, 10_000);
    expect(clients.filter((client) => client.closedAfterMs !== undefined)).toHaveLength(300);
    for (const client of clients) expect(client.received).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000);

  it('leaves the connection of a body that arrived in time open past the deadline (kept alive)', async () => {
    const { baseUrl } = await start(600);
    const body = JSON.stringify({ model: 'nobody/m', messages: [{ role: 'user', content: 'hi' }] });
    const socket = net.connect(Number(new URL(baseUrl).port), '127.0.0.1');
    clients = [{ received: '', socket }];
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    // Unknown provider: the body was read whole and answered by the route; the deadline never fired.
    expect(received).toMatch(/^HTTP\/1\.1 404 /);
    expect(received).not.toContain(' 408 ');
    expect(socket.destroyed).toBe(false);
  });
});
