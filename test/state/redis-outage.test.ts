/**
 * A Redis outage, seen by clients of gateways built in this process: what needs the shared state answers
 * 503 `state_unavailable` in the API's own envelope (never a hang), rate limits fail open or closed as
 * configured, /ready says Redis is down; once Redis is back, everything works again. A Redis that accepts
 * connections but never answers, or one that stalls while connected (SIGSTOP), is bounded the same way.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { redisServerPath, RedisServer, warnWhenRedisIsMissing } from '../helpers/redis-server.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';
import { sleep } from '../helpers/loopback-server.js';

warnWhenRedisIsMissing('the Redis outage tests');

const limitedKey = 'sk-limited-0123456789';
const model = 'local/gpt-fake-1';

let upstream: FakeOpenAiUpstream;

function limitedGateway(redisUrl: string, onRedisError: 'open' | 'closed'): Promise<StartedGateway> {
  return startGateway({
    server: {
      apiKeys: [{ key: limitedKey, name: 'limited', limits: { requestsPerMinute: 100, tokensPerMinute: 100_000, concurrentStreams: 5 } }],
    },
    providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
    state: { redis: redisUrl, onRedisError, commandTimeoutMs: 300, connectTimeoutMs: 500 },
  });
}

async function call(gateway: StartedGateway, method: string, path: string, body?: Record<string, unknown>) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${limitedKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text.startsWith('{') ? JSON.parse(text) : text) as Record<string, any>,
  };
}

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.respondWith(() => ({ type: 'chat', content: 'ok' }));
});

afterAll(async () => {
  await upstream?.close();
});

describe.skipIf(!redisServerPath)('a Redis outage', () => {
  let redis: RedisServer;
  let open: StartedGateway;
  let closed: StartedGateway;

  beforeAll(async () => {
    redis = await RedisServer.start();
    [open, closed] = await Promise.all([limitedGateway(redis.url, 'open'), limitedGateway(redis.url, 'closed')]);
  });

  afterAll(async () => {
    await Promise.all([open?.close(), closed?.close()]);
    await redis?.stop();
  });

  it('is a 503 for stored responses, limits open or closed as configured, /ready down; and all works once Redis is back', async () => {
    const stored = await call(open, 'POST', '/v1/responses', { model, input: 'hi' });
    expect(stored.status).toBe(200);
    const id = stored.body.id as string;
    const itemId = stored.body.output[0].id as string;
    expect((await call(open, 'GET', '/ready')).status).toBe(200);

    await redis.stop();

    const unavailable = { error: { type: 'server_error', code: 'state_unavailable' } };
    const continued = await call(open, 'POST', '/v1/responses', { model, input: 'more', previous_response_id: id, store: false });
    expect(continued).toMatchObject({ status: 503, body: unavailable });
    expect(continued.body.error.message).toContain('Redis');
    expect(
      await call(open, 'POST', '/v1/responses', { model, input: [{ type: 'item_reference', id: itemId }], store: false }),
    ).toMatchObject({ status: 503, body: unavailable });
    expect(await call(open, 'GET', `/v1/responses/${id}`)).toMatchObject({ status: 503, body: unavailable });
    expect(await call(open, 'GET', `/v1/responses/${id}/input_items`)).toMatchObject({ status: 503, body: unavailable });
    expect(await call(open, 'DELETE', `/v1/responses/${id}`)).toMatchObject({ status: 503, body: unavailable });
    // Storing is refused before generating: no tokens are spent on an answer that could not be kept.
    const before = upstream.chatRequests().length;
    expect(await call(open, 'POST', '/v1/responses', { model, input: 'keep me' })).toMatchObject({ status: 503, body: unavailable });
    expect(upstream.chatRequests().length).toBe(before);

    // Open: limited requests go on, uncounted (no x-ratelimit headers), streams included.
    const admitted = await call(open, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect((await call(open, 'POST', '/v1/responses', { model, input: 'hi', store: false, stream: true })).status).toBe(200);
    // Closed: refused with a 503, in each API's envelope.
    expect(await call(closed, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({
      status: 503,
      body: unavailable,
    });
    const messages = await call(closed, 'POST', '/v1/messages', { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(messages).toMatchObject({ status: 503, body: { type: 'error', error: { type: 'api_error' } } });
    expect(messages.body.error.message).toContain('Redis');

    const ready = await call(open, 'GET', '/ready');
    expect(ready).toMatchObject({ status: 503, body: { error: { code: 'not_ready' } } });
    expect(ready.body.error.message).toContain('Redis');
    // Nothing in the logs' way: the gateways are still serving what needs no state.
    expect((await call(open, 'GET', '/health')).status).toBe(200);

    await redis.start();
    await waitUntil(async () => (await call(open, 'GET', '/ready')).status === 200 && (await call(closed, 'GET', '/ready')).status === 200);

    const again = await call(open, 'POST', '/v1/responses', { model, input: 'hi again' });
    expect(again.status).toBe(200);
    expect((await call(closed, 'POST', '/v1/responses', { model, input: 'and more', previous_response_id: again.body.id })).status).toBe(
      200,
    );
    expect(upstream.lastChatBody().messages).toHaveLength(3);
    const counted = await call(closed, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
    expect(counted.status).toBe(200);
    expect(counted.headers.get('x-ratelimit-limit-requests')).toBe('100');
  });
});

describe.skipIf(!redisServerPath)('a Redis that stalls while connected', () => {
  let redis: RedisServer;
  let closed: StartedGateway;

  beforeAll(async () => {
    redis = await RedisServer.start();
    closed = await limitedGateway(redis.url, 'closed');
  });

  afterAll(async () => {
    redis?.resume();
    await closed?.close();
    await redis?.stop();
  });

  it('is bounded by the command timeout: a 503, then service again once it answers', async () => {
    const stored = await call(closed, 'POST', '/v1/responses', { model, input: 'hi' });
    expect(stored.status).toBe(200);
    redis.pause();
    // The connection is still up (no 'close' yet), so only commandTimeoutMs (300 ms here) ends these.
    expect(await call(closed, 'GET', `/v1/responses/${stored.body.id}`)).toMatchObject({
      status: 503,
      body: { error: { code: 'state_unavailable' } },
    });
    expect(await call(closed, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({
      status: 503,
      body: { error: { code: 'state_unavailable' } },
    });
    redis.resume();
    await waitUntil(async () => (await call(closed, 'GET', `/v1/responses/${stored.body.id}`)).status === 200);
    expect((await call(closed, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200);
  });
});

/** Polls (the reconnect happens within about two seconds); the test's own timeout bounds it. */
async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await sleep(100);
}

describe('a Redis that accepts connections but never answers', () => {
  let silent: net.Server;
  let gateway: StartedGateway;
  const connections: net.Socket[] = [];

  beforeAll(async () => {
    silent = net.createServer((connection) => connections.push(connection));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    gateway = await limitedGateway(`redis://127.0.0.1:${port}/0`, 'closed');
  });

  afterAll(async () => {
    await gateway?.close();
    for (const connection of connections) connection.destroy();
    await new Promise<void>((resolve) => silent?.close(() => resolve()));
  });

  it('answers 503 for what needs it, promptly, and /ready says not ready', async () => {
    expect(await call(gateway, 'GET', '/v1/responses/resp_nowhere')).toMatchObject({
      status: 503,
      body: { error: { code: 'state_unavailable' } },
    });
    expect(await call(gateway, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({
      status: 503,
    });
    expect(await call(gateway, 'GET', '/ready')).toMatchObject({ status: 503, body: { error: { code: 'not_ready' } } });
  });
});
