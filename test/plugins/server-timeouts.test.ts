/**
 * Time limits on receiving a request: a client that stops mid-headers or mid-body is answered 408 and
 * closed (slow-loris), while a reply streaming for longer than the limit is not cut; and the close-hook
 * timeout always covers the shutdown's grace period.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { shutdownOverrunMs } from '../../src/plugins/live-streams.js';
import { serverTimeoutOptions } from '../../src/plugins/server-timeouts.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { sseChunks } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

function serverSettings(server: Record<string, unknown>) {
  return normalizeConfig(validateConfigFile({ server, providers: {} }), {}).server;
}

describe('serverTimeoutOptions', () => {
  it('gives the close hooks more time than the grace period plus its overrun, whatever the grace', () => {
    for (const grace of [0, 10_000, 60_000]) {
      const options = serverTimeoutOptions(serverSettings({ shutdownGraceMs: grace }), grace);
      expect(options.pluginTimeout).toBeGreaterThan(grace + shutdownOverrunMs);
    }
  });

  it('passes the request and headers timeouts to the server, checked often enough to matter', () => {
    const options = serverTimeoutOptions(serverSettings({ requestTimeoutMs: 400, headersTimeoutMs: 200 }), 0);
    expect(options.requestTimeout).toBe(400);
    expect(options.http).toMatchObject({ requestTimeout: 400, headersTimeout: 200 });
    expect(options.http.connectionsCheckingInterval).toBeLessThanOrEqual(200);
  });

  it('keeps the headers timeout within a shorter request timeout (Node refuses one longer)', () => {
    expect(serverSettings({ requestTimeoutMs: 500 })).toMatchObject({ requestTimeoutMs: 500, headersTimeoutMs: 500 });
    expect(serverSettings({ requestTimeoutMs: 0 })).toMatchObject({ requestTimeoutMs: 0, headersTimeoutMs: 10_000 });
  });
});

describe('a client that stops sending', () => {
  let upstream: FakeOpenAiUpstream;
  let gateway: StartedGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    gateway = await startGateway({
      server: { requestTimeoutMs: 300, headersTimeoutMs: 200 },
      providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  /** Sends `bytes` on a raw socket and returns everything received until the gateway closes it (or a bound passes). */
  async function sendAndStall(bytes: string): Promise<{ closed: boolean; received: string }> {
    const port = Number(new URL(gateway.baseUrl).port);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write(bytes);
    // The bound only ends a failing test: a gateway without the limit keeps the socket open forever.
    const closed = await new Promise<boolean>((resolve) => {
      const bound = setTimeout(() => resolve(false), 10_000);
      socket.once('close', () => {
        clearTimeout(bound);
        resolve(true);
      });
    });
    socket.destroy();
    return { closed, received };
  }

  it('answers 408 and closes the connection when the body stops mid-way', async () => {
    const result = await sendAndStall(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":"local/m",',
    );
    expect(result.closed).toBe(true);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(upstream.chatRequests()).toHaveLength(0);
  });

  it('answers 408 and closes the connection when the headers stop mid-way', async () => {
    const result = await sendAndStall('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty');
    expect(result.closed).toBe(true);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes the connection when a WebSocket upgrade stops mid-way through its headers', async () => {
    const result = await sendAndStall(
      'GET /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Ver',
    );
    expect(result.closed).toBe(true);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('does not cut a streamed reply that lasts longer than the request timeout', async () => {
    // Eight frames 150 ms apart: the reply streams for about four request timeouts.
    upstream.enqueue({ type: 'chat', content: 'a reply that takes its time', fragmentSize: 4, chunkDelayMs: 150 });
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(response.status).toBe(200);
    const chunks = sseChunks(await response.text());
    const content = chunks
      .map((chunk) => (chunk as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
      .join('');
    expect(content).toBe('a reply that takes its time');
  });
});
