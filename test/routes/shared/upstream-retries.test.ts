/**
 * Upstream retries, end to end against fault-injecting fake upstreams: what is retried (503, 429 with its
 * retry-after, resets, refused connections) and what never is (a 400, anything after the first byte), a
 * client leaving during a backoff, the headers, metrics and log lines.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../../src/config/validate-config-file.js';
import { startFakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { sleep } from '../../helpers/loopback-server.js';
import { postJson, sseChunks, sseFrames } from '../../helpers/read-sse.js';
import { testProvider } from '../../helpers/start-gateway.js';
import { chat, cleanups, closedPort, fakeUpstream, gatewayFor, quickRetries, scrape } from './resilience-kit.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

describe('retries', () => {
  it('retries a 503 and answers from the second attempt, saying so in headers and metrics', async () => {
    const upstream = await fakeUpstream();
    upstream.enqueue(
      { type: 'http-error', status: 503, errorType: 'server_error', message: 'overloaded' },
      { type: 'chat', content: 'fine now' },
    );
    const gateway = await gatewayFor({
      providers: { main: testProvider('openai-compatible', `${upstream.url}/v1`, { retries: quickRetries }) },
    });

    const response = await chat(gateway, { model: 'main/llama-3.1-8b' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text).choices[0].message.content).toBe('fine now');
    expect(upstream.chatRequests()).toHaveLength(2);
    expect(response.headers.get('x-interlingua-model')).toBe('main/llama-3.1-8b');
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    const metrics = await scrape(gateway);
    expect(metrics.get('interlingua_upstream_retries_total{provider="main",model="llama-3.1-8b",reason="http_503"}')).toBe(1);
  });

  it('retries a 429 after its retry-after-ms, and gives up on one that asks for longer than maxDelayMs', async () => {
    const upstream = await fakeUpstream();
    upstream.enqueue(
      { type: 'http-error', status: 429, errorType: 'rate_limit_error', message: 'slow down', headers: { 'retry-after-ms': '5' } },
      { type: 'http-error', status: 429, errorType: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0' } },
      { type: 'chat', content: 'third time' },
    );
    const gateway = await gatewayFor({
      providers: { main: testProvider('openai-compatible', `${upstream.url}/v1`, { retries: quickRetries }) },
    });
    const answered = await chat(gateway, { model: 'main/m' });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-interlingua-attempts')).toBe('3');
    expect(upstream.chatRequests()).toHaveLength(3);

    // 120 s is beyond the 50 ms cap: no retry, and the client gets the upstream's 429 with its retry-after.
    upstream.enqueue({
      type: 'http-error',
      status: 429,
      errorType: 'rate_limit_error',
      message: 'come back later',
      headers: { 'retry-after': '120' },
    });
    const refused = await chat(gateway, { model: 'main/m' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('120');
    expect(upstream.chatRequests()).toHaveLength(4);
    const metrics = await scrape(gateway);
    expect(metrics.get('interlingua_upstream_retries_total{provider="main",model="m",reason="http_429"}')).toBe(2);
  });

  it('reads retry-after-ms from Anthropic too: an overloaded 529 asking for 5 ms (and 600 s in retry-after) is retried', async () => {
    const upstream = await startFakeAnthropicUpstream();
    cleanups.push(() => upstream.close());
    upstream.enqueue(
      { type: 'http-error', status: 529, message: 'Overloaded', headers: { 'retry-after-ms': '5', 'retry-after': '600' } },
      { type: 'message', content: [{ type: 'text', text: 'here now' }] },
    );
    const gateway = await gatewayFor({
      providers: { claude: testProvider('anthropic', upstream.url, { apiKey: 'sk-ant-upstream', retries: quickRetries }) },
    });
    const response = await postJson(
      `${gateway.baseUrl}/v1/messages`,
      { model: 'claude/claude-sonnet-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(response.status).toBe(200);
    const text = response.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => (JSON.parse(line.slice('data: '.length)) as { delta?: { text?: string } }).delta?.text ?? '')
      .join('');
    expect(text).toBe('here now');
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    expect(upstream.messageRequests()).toHaveLength(2);
    expect(
      (await scrape(gateway)).get('interlingua_upstream_retries_total{provider="claude",model="claude-sonnet-4-5",reason="http_529"}'),
    ).toBe(1);
  });

  it('never retries a 400, which keeps its status and message', async () => {
    const upstream = await fakeUpstream();
    upstream.enqueue({ type: 'http-error', status: 400, message: 'context too long', code: 'context_length_exceeded' });
    const gateway = await gatewayFor({
      providers: { main: testProvider('openai-compatible', `${upstream.url}/v1`, { retries: quickRetries }) },
    });
    const response = await chat(gateway, { model: 'main/m' });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text).error).toMatchObject({ message: 'context too long', code: 'context_length_exceeded' });
    expect(upstream.chatRequests()).toHaveLength(1);
  });

  it('never retries once the stream began: a mid-stream failure is one attempt and an error frame', async () => {
    const upstream = await fakeUpstream();
    upstream.enqueue(
      { type: 'chat', content: 'partial answer that breaks', streamError: { afterChunks: 3, message: 'engine died' } },
      { type: 'chat', content: 'must not be used' },
    );
    const gateway = await gatewayFor({
      providers: { main: testProvider('openai-compatible', `${upstream.url}/v1`, { retries: quickRetries }) },
      fallbacks: { 'main/m': ['main/other'] },
    });
    const response = await chat(gateway, { model: 'main/m', stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-attempts')).toBe('1');
    const frames = sseFrames(response.text);
    expect(frames.at(-1)).not.toBe('[DONE]');
    expect(JSON.parse(frames.at(-1) ?? '{}').error.message).toContain('engine died');
    expect(upstream.chatRequests()).toHaveLength(1);
  });

  it('retries a connection reset before the response', async () => {
    const upstream = await fakeUpstream();
    upstream.enqueue({ type: 'reset' }, { type: 'chat', content: 'reconnected' });
    const gateway = await gatewayFor({
      providers: { main: testProvider('openai-compatible', `${upstream.url}/v1`, { retries: quickRetries }) },
    });
    const response = await chat(gateway, { model: 'main/m', stream: true });
    expect(response.status).toBe(200);
    expect(
      sseChunks(response.text)
        .map((chunk) => (chunk as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
        .join(''),
    ).toBe('reconnected');
    expect(upstream.chatRequests()).toHaveLength(2);
    expect((await scrape(gateway)).get('interlingua_upstream_retries_total{provider="main",model="m",reason="connect"}')).toBe(1);
  });

  it('retries a refused connection up to its count, then falls back', async () => {
    const upstream = await fakeUpstream();
    upstream.enqueue({ type: 'chat', content: 'from the fallback' });
    const gateway = await gatewayFor({
      providers: {
        down: testProvider('openai-compatible', `http://127.0.0.1:${await closedPort()}/v1`, { retries: quickRetries }),
        up: testProvider('openai-compatible', `${upstream.url}/v1`),
      },
      fallbacks: { 'down/m': ['up/m2'] },
    });
    const response = await chat(gateway, { model: 'down/m' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-model')).toBe('up/m2');
    // Three tries on the refused one, one on the fallback.
    expect(response.headers.get('x-interlingua-attempts')).toBe('4');
    const metrics = await scrape(gateway);
    expect(metrics.get('interlingua_upstream_retries_total{provider="down",model="m",reason="connect"}')).toBe(2);
    expect(metrics.get('interlingua_upstream_fallbacks_total{provider="down",model="m",reason="connect"}')).toBe(1);
  });

  it('stops waiting, and makes no further attempt, when the client leaves during a backoff', async () => {
    const upstream = await fakeUpstream();
    upstream.enqueue(
      { type: 'http-error', status: 503, errorType: 'server_error', message: 'busy', headers: { 'retry-after-ms': '60000' } },
      { type: 'chat', content: 'too late' },
    );
    const gateway = await gatewayFor({
      providers: { main: testProvider('openai-compatible', `${upstream.url}/v1`, { retries: { count: 1, maxDelayMs: 120_000 } }) },
    });
    const controller = new AbortController();
    const pending = fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'main/m', messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    // The retry counter moves just before the wait begins; the live request is still counted.
    while ((await scrape(gateway)).get('interlingua_upstream_retries_total{provider="main",model="m",reason="http_503"}') !== 1)
      await sleep(5);
    expect((await scrape(gateway)).get('interlingua_live_streams')).toBe(1);
    controller.abort();
    await pending;
    // Without the cancellation this would wait the whole minute before its second attempt (and the test time out).
    while ((await scrape(gateway)).get('interlingua_live_streams') !== 0) await sleep(5);
    expect(upstream.chatRequests()).toHaveLength(1);
  });
});

describe('log lines', () => {
  it('says at info which target was retried or left, and how, without a secret', async () => {
    const [first, second] = await Promise.all([fakeUpstream(), fakeUpstream()]);
    first.enqueue(
      { type: 'http-error', status: 503, errorType: 'server_error', message: 'busy' },
      { type: 'http-error', status: 503, errorType: 'server_error', message: 'still busy' },
    );
    second.enqueue({ type: 'chat', content: 'ok' });
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const file = {
      providers: {
        a: testProvider('openai-compatible', `${first.url}/v1`, {
          apiKey: 'sk-upstream-secret-a1',
          retries: { count: 1, initialDelayMs: 1 },
        }),
        b: testProvider('openai-compatible', `${second.url}/v1`, { apiKey: 'sk-upstream-secret-b2' }),
      },
      fallbacks: { 'a/m': ['b/m'] },
    };
    const app = await buildApp(normalizeConfig(validateConfigFile(file), {}), { logger: pino({ level: 'info' }, sink) });
    cleanups.push(() => app.close());
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    expect((await postJson(`${baseUrl}/v1/chat/completions`, { model: 'a/m', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(
      200,
    );
    const retry = lines.find((line) => line.msg === 'retrying the upstream request');
    const fallback = lines.find((line) => line.msg === 'falling back to the next target');
    expect(retry).toMatchObject({ level: 30, provider: 'a', model: 'm', reason: 'http_503', attempt: 1 });
    expect(fallback).toMatchObject({ level: 30, provider: 'a', model: 'm', reason: 'http_503', fallback: 'b/m', attempts: 2 });
    expect(JSON.stringify(lines)).not.toMatch(/sk-upstream-secret/);
  });
});
