/**
 * Two gateway processes (the real entry, as `npm start -- --config FILE --port PORT` runs it) on
 * different ports, sharing one password-protected Redis: a rate limit spent on one is refused on the
 * other, a response stored through one is continued, fetched and deleted through the other, an outage
 * is a 503 with limits open on one and closed on the other as configured, and all works once Redis is
 * back. The Redis password never reaches a log line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { freePort, GatewayProcesses, waitForHealth, type StartedProcess } from '../helpers/gateway-process.js';
import { sleep } from '../helpers/loopback-server.js';
import { redisServerPath, RedisServer, warnWhenRedisIsMissing } from '../helpers/redis-server.js';

warnWhenRedisIsMissing('the two-replica Redis tests');

const password = 'redis-pass-0123456789';
const scarceKey = 'sk-scarce-0123456789';
const roomyKey = 'sk-roomy-0123456789';
const model = 'local/gpt-fake-1';

type Replica = { name: string; port: number; process: StartedProcess };

const processes = new GatewayProcesses();
let upstream: FakeOpenAiUpstream;
let redis: RedisServer;
let folder: string;
let a: Replica;
let b: Replica;

async function startReplica(name: string, onRedisError: 'open' | 'closed'): Promise<Replica> {
  const config = {
    server: {
      apiKeys: [
        { key: scarceKey, name: 'scarce', limits: { requestsPerMinute: 2 } },
        { key: roomyKey, name: 'roomy', limits: { requestsPerMinute: 1000 } },
      ],
    },
    providers: { local: { type: 'openai-compatible', baseUrl: `${upstream.url}/v1`, toolCalling: 'native' } },
    state: { redis: redis.url, onRedisError, commandTimeoutMs: 500 },
  };
  const file = join(folder, `${name}.json`);
  await writeFile(file, JSON.stringify(config));
  const port = await freePort();
  const started = processes.start(['--config', file, '--port', String(port)]);
  await waitForHealth(started, port);
  return { name, port, process: started };
}

async function call(replica: Replica, method: string, path: string, body?: Record<string, unknown>, key = roomyKey) {
  const response = await fetch(`http://127.0.0.1:${replica.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as Record<string, any> };
}

const chat = (content: string) => ({ model, messages: [{ role: 'user', content }] });

describe.skipIf(!redisServerPath)('two replicas sharing one Redis', () => {
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'interlingua-replicas-'));
    upstream = await startFakeOpenAiUpstream();
    upstream.respondWith(() => ({ type: 'chat', content: 'ok' }));
    redis = await RedisServer.start({ password });
    [a, b] = await Promise.all([startReplica('a', 'open'), startReplica('b', 'closed')]);
  }, 120_000);

  afterAll(async () => {
    processes.killAll();
    await redis?.stop();
    await upstream?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('share the rate limits: what is spent on one is refused on the other', async () => {
    expect((await call(a, 'POST', '/v1/chat/completions', chat('one'), scarceKey)).status).toBe(200);
    expect((await call(b, 'POST', '/v1/chat/completions', chat('two'), scarceKey)).status).toBe(200);
    const refused = await call(a, 'POST', '/v1/chat/completions', chat('three'), scarceKey);
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'rate_limit_exceeded' } } });
    expect((await call(b, 'POST', '/v1/chat/completions', chat('four'), scarceKey)).status).toBe(429);
  });

  it('share the stored responses: created on one, continued, fetched and deleted on the other', async () => {
    const created = await call(a, 'POST', '/v1/responses', { model, input: 'Remember: 42.' });
    expect(created.status).toBe(200);
    const continued = await call(b, 'POST', '/v1/responses', { model, input: 'What was it?', previous_response_id: created.body.id });
    expect(continued.status).toBe(200);
    expect(upstream.lastChatBody().messages).toEqual([
      { role: 'user', content: 'Remember: 42.' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'What was it?' },
    ]);
    const fetched = await call(b, 'GET', `/v1/responses/${created.body.id}`);
    expect(fetched).toMatchObject({ status: 200, body: { id: created.body.id, output: created.body.output } });
    const items = await call(a, 'GET', `/v1/responses/${continued.body.id}/input_items?order=asc`);
    expect(items.body.data.map((item: { content: unknown }) => item.content)).toEqual([
      [{ type: 'input_text', text: 'Remember: 42.' }],
      created.body.output[0].content,
      [{ type: 'input_text', text: 'What was it?' }],
    ]);
    expect(await call(b, 'DELETE', `/v1/responses/${created.body.id}`)).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await call(a, 'GET', `/v1/responses/${created.body.id}`)).status).toBe(404);
  });

  it('answer 503 while Redis is down, limits open on one and closed on the other, and recover when it is back', async () => {
    const before = await call(a, 'POST', '/v1/responses', { model, input: 'before' });
    await redis.stop();

    for (const replica of [a, b]) {
      const continued = await call(replica, 'POST', '/v1/responses', {
        model,
        input: 'next',
        previous_response_id: before.body.id,
        store: false,
      });
      expect(continued, replica.name).toMatchObject({ status: 503, body: { error: { code: 'state_unavailable' } } });
      expect((await call(replica, 'GET', '/ready')).status).toBe(503);
    }
    expect((await call(a, 'POST', '/v1/chat/completions', chat('open'))).status).toBe(200);
    expect(await call(b, 'POST', '/v1/chat/completions', chat('closed'))).toMatchObject({
      status: 503,
      body: { error: { code: 'state_unavailable' } },
    });

    await redis.start();
    while ((await call(a, 'GET', '/ready')).status !== 200 || (await call(b, 'GET', '/ready')).status !== 200) await sleep(100);
    const after = await call(a, 'POST', '/v1/responses', { model, input: 'after' });
    expect((await call(b, 'POST', '/v1/responses', { model, input: 'next', previous_response_id: after.body.id })).status).toBe(200);
    expect((await call(b, 'POST', '/v1/chat/completions', chat('counted again'))).status).toBe(200);

    // Both said Redis was down (and back), and neither wrote its password.
    for (const replica of [a, b]) {
      // The log is written in blocks flushed every 200 ms: wait for the line instead of racing the flush.
      await vi.waitFor(() => expect(replica.process.output()).toContain('Redis unreachable'), { timeout: 5_000, interval: 50 });
      expect(replica.process.output()).not.toContain(password);
    }
  });
});
