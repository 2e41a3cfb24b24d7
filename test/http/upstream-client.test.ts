/** UpstreamClient: whole bodies and SSE/NDJSON streams from one loopback upstream, with caps, status mapping and cancellation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/config/config-types.js';
import { defaultUpstreamLimits } from '../../src/config/normalize-config.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { UpstreamClient } from '../../src/http/upstream-client.js';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer;
let client: UpstreamClient;
/** The sockets the long streams came in on: one, when a finished stream's connection goes back to the pool. */
const longStreamSockets = new Set<unknown>();

function config(baseUrl: string): ProviderConfig {
  return {
    name: 'up',
    type: 'openai-compatible',
    baseUrl,
    headers: {},
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
    limits: { ...defaultUpstreamLimits, maxResponseBytes: 64 * 1024, maxEventBytes: 1024 },
    toolCalling: 'auto',
    models: {},
  };
}

beforeAll(async () => {
  server = await startLoopbackServer(
    async (request, response, raw) => {
      switch (request.path) {
        case '/v1/long-sse': {
          // Past 64 KB in all, its end a little after [DONE], as a server ends the response after its last frame.
          longStreamSockets.add(raw.socket);
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          for (let index = 0; index < 200; index++) response.write(`data: ${'x'.repeat(400)}\n\n`);
          response.write('data: [DONE]\n\n');
          setTimeout(() => response.end(), 20);
          return;
        }
        case '/v1/echo':
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ method: request.method, body: request.body ?? null, auth: request.headers.authorization ?? null }));
          return;
        case '/v1/limited':
          response
            .writeHead(429, { 'content-type': 'application/json', 'retry-after': '7', 'retry-after-ms': '7000' })
            .end('{"error":{"message":"slow down","code":"rate_limited"}}');
          return;
        case '/v1/broken':
          response.writeHead(500, { 'content-type': 'text/plain' }).end('runner crashed');
          return;
        case '/v1/not-json':
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"cut":');
          return;
        case '/v1/large':
          response.writeHead(200, { 'content-type': 'application/json' });
          for (let index = 0; index < 16 && !response.destroyed; index++) response.write(Buffer.alloc(16 * 1024, 'x'));
          response.end();
          return;
        case '/v1/sse':
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write('data: one\n\nevent: named\ndata: two\n\n');
          response.end('data: unfinished');
          return;
        case '/v1/ndjson':
          response.writeHead(200, { 'content-type': 'application/x-ndjson' });
          response.write('{"n":1}\n{"n"');
          response.end(':2}\n{"n":3}');
          return;
        case '/v1/long-event':
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.end(`data: ${'x'.repeat(4096)}\n\n`);
          return;
        case '/v1/hold':
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write('data: first\n\n');
          return;
        default:
          response.writeHead(404).end();
      }
    },
    { keepAliveTimeoutMs: 5_000 },
  );
  client = new UpstreamClient(config(`${server.url}/v1/`));
});

afterAll(async () => {
  await client.close();
  await server.close();
});

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!GatewayError.isInstance(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('UpstreamClient whole bodies', () => {
  it('posts JSON under the base path and reads the reply; GET without a body', async () => {
    const posted = await client.readJson({
      path: '/echo',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      json: { a: 1 },
    });
    expect(posted).toEqual({ method: 'POST', body: { a: 1 }, auth: 'Bearer k' });
    expect(JSON.parse(await client.readText({ path: '/echo', headers: {} }))).toMatchObject({ method: 'GET', body: null });
    expect(
      JSON.parse(
        await client.readText({ path: '/echo', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"spliced":true}') }),
      ),
    ).toMatchObject({ body: { spliced: true } });
  });

  it('keeps a 4xx status, its message, code and retry-after; a 5xx keeps its status, naming the provider', async () => {
    expect(await rejection(client.readText({ path: '/limited', headers: {} }))).toMatchObject({
      status: 429,
      message: 'slow down',
      code: 'rate_limited',
      retryAfter: '7',
      retryAfterMs: '7000',
      upstreamStatus: 429,
    });
    const broken = await rejection(client.readText({ path: '/broken', headers: {} }));
    expect(broken).toMatchObject({ status: 500, upstreamStatus: 500 });
    expect(broken.message).toMatch(/'up'.*HTTP 500.*runner crashed/);
  });

  it('is a 502 for a 2xx body that is not JSON or passes maxResponseBytes', async () => {
    expect(await rejection(client.readJson({ path: '/not-json', headers: {} }))).toMatchObject({
      status: 502,
      code: 'upstream_bad_response',
    });
    expect(await rejection(client.readText({ path: '/large', headers: {} }))).toMatchObject({
      status: 502,
      code: 'upstream_response_too_large',
    });
  });

  it('is the gateway own 500-class failure, not an unreachable upstream, when the body cannot be serialised', async () => {
    const before = server.requests.length;
    const error = await client.readText({ path: '/echo', headers: {}, json: { big: 1n } }).catch((failure: unknown) => failure);
    expect(GatewayError.isInstance(error)).toBe(false);
    expect(server.requests.length).toBe(before);
  });

  it('reports a refused connection as a 502 and a cancelled request as its cancellation', async () => {
    const refused = new UpstreamClient(config('http://127.0.0.1:1/v1'));
    try {
      expect(await rejection(refused.readText({ path: '/x', headers: {} }))).toMatchObject({ status: 502, code: 'upstream_unavailable' });
    } finally {
      await refused.close();
    }
    const cancellation = new RequestCancellation();
    cancellation.abort(new Error('client closed the connection'));
    expect(await rejection(client.readText({ path: '/echo', headers: {}, cancellation }))).toMatchObject({
      status: 499,
      code: 'client_closed_request',
    });
  });
});

describe('UpstreamClient streams', () => {
  it('reads SSE events in batches, dropping or flushing an unfinished last event as asked', async () => {
    const collect = async (unfinished: 'drop' | 'flush') => {
      const stream = await client.openStream({ path: '/sse', headers: {}, json: {} });
      const events = [];
      for await (const batch of stream.serverSentEvents(unfinished)) events.push(...batch);
      return events;
    };
    expect(await collect('drop')).toEqual([{ data: 'one' }, { event: 'named', data: 'two' }]);
    expect((await collect('flush')).at(-1)).toEqual({ data: 'unfinished' });
  });

  it('reads NDJSON values split across writes, the last line without its line end included', async () => {
    const stream = await client.openStream({ path: '/ndjson', headers: {}, json: {} });
    const values = [];
    for await (const batch of stream.jsonLines()) values.push(...batch);
    expect(values).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('rejects an error status before any stream, with the error body read', async () => {
    expect(await rejection(client.openStream({ path: '/limited', headers: {}, json: {} }))).toMatchObject({
      status: 429,
      message: 'slow down',
      retryAfter: '7',
    });
  });

  it('fails the loop with a 502 when one event passes maxEventBytes', async () => {
    const stream = await client.openStream({ path: '/long-event', headers: {}, json: {} });
    const reading = (async () => {
      for await (const batch of stream.serverSentEvents('drop')) void batch;
    })();
    expect(await rejection(reading)).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
  });

  it('ends a stream cut by its cancellation with the cancellation error, and the upstream sees the abort', async () => {
    const cancellation = new RequestCancellation();
    const arrived = server.nextRequest();
    const stream = await client.openStream({ path: '/hold', headers: {}, json: {}, cancellation });
    const recorded = await arrived;
    const batches = stream.serverSentEvents('drop');
    expect((await batches.next()).value).toEqual([{ data: 'first' }]);
    cancellation.abort(new Error('client closed the connection'));
    expect(await rejection(batches.next())).toMatchObject({ status: 499, code: 'client_closed_request' });
    while (!recorded.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(cancellation.listenerCount('abort')).toBe(0);
  });

  it('reads the rest of a long stream completed at [DONE], so its connection serves the next request', async () => {
    for (let round = 0; round < 2; round++) {
      const stream = await client.openStream({ path: '/long-sse', headers: {}, json: {} });
      let frames = 0;
      for await (const batch of stream.serverSentEvents('drop')) {
        frames += batch.length;
        if (batch.some((event) => event.data === '[DONE]')) {
          stream.complete();
          break;
        }
      }
      expect(frames).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(longStreamSockets.size).toBe(1);
  });

  it('releases the body when the consumer leaves the loop early', async () => {
    const arrived = server.nextRequest();
    const stream = await client.openStream({ path: '/hold', headers: {}, json: {} });
    const recorded = await arrived;
    for await (const batch of stream.serverSentEvents('drop')) if (batch.length > 0) break;
    while (!recorded.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(recorded.aborted).toBe(true);
  });
});
