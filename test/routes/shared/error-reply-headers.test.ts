/**
 * Error replies carry the same operational headers as answers do: `x-request-id`, the `x-ratelimit-*`
 * of the key's limits, and `x-interlingua-model` / `x-interlingua-attempts` (the target tried last and
 * the upstream requests made) — on Chat Completions, Responses and Messages, for an exhausted fallback
 * chain, a streaming request refused before its first byte, an upstream 429 passed on, and the gateway's
 * own 429 (no upstream asked: 0 attempts). And answers name their request once: the intake sets the id on
 * every reply, a stream writes it into its own head.
 */
import { describe, expect, it } from 'vitest';
import { postJson, type RawResponse } from '../../helpers/read-sse.js';
import { testProvider } from '../../helpers/start-gateway.js';
import { fakeUpstream, gatewayFor } from './resilience-kit.js';

const key = 'sk-team-0123456789';
const auth = { authorization: `Bearer ${key}` };
const busy = { type: 'http-error', status: 503, errorType: 'server_error', message: 'busy' } as const;

const routes = [
  {
    api: 'Chat Completions',
    path: '/v1/chat/completions',
    body: (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }] }),
    envelope: { error: { type: expect.any(String) } },
  },
  {
    api: 'Responses',
    path: '/v1/responses',
    body: (model: string) => ({ model, input: 'hi', store: false }),
    envelope: { error: { type: expect.any(String) } },
  },
  {
    api: 'Messages',
    path: '/v1/messages',
    body: (model: string) => ({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    envelope: { type: 'error', error: { type: expect.any(String) } },
  },
] as const;

function expectOperationalHeaders(response: RawResponse, model: string | null, attempts: string): void {
  expect(response.headers.get('x-request-id')).toMatch(/\S/);
  expect(response.headers.get('x-ratelimit-limit-requests')).toBe('1000');
  expect(response.headers.get('x-interlingua-model')).toBe(model);
  expect(response.headers.get('x-interlingua-attempts')).toBe(attempts);
}

describe('headers on error replies', () => {
  for (const route of routes) {
    it(`${route.api}: an exhausted fallback chain names the last target and counts every attempt`, async () => {
      const [primary, backup] = await Promise.all([fakeUpstream(), fakeUpstream()]);
      primary.respondWith(() => busy);
      backup.respondWith(() => ({ type: 'http-error', status: 502, errorType: 'server_error', message: 'bad gateway' }));
      const gateway = await gatewayFor({
        server: { apiKeys: [{ key, name: 'team', limits: { requestsPerMinute: 1000 } }] },
        providers: { a: testProvider('openai-compatible', `${primary.url}/v1`), b: testProvider('openai-compatible', `${backup.url}/v1`) },
        fallbacks: { 'a/model-a': ['b/model-b'] },
      });
      const failed = await postJson(`${gateway.baseUrl}${route.path}`, route.body('a/model-a'), {
        ...auth,
        'x-request-id': 'req-from-the-client',
      });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(JSON.parse(failed.text)).toMatchObject(route.envelope);
      expectOperationalHeaders(failed, 'b/model-b', '2');
      expect(failed.headers.get('x-request-id')).toBe('req-from-the-client');

      // Streaming, refused before the first byte: an error reply like the others, the same headers.
      const streamed = await postJson(`${gateway.baseUrl}${route.path}`, { ...route.body('a/model-a'), stream: true }, auth);
      expect(streamed.status).toBeGreaterThanOrEqual(500);
      expectOperationalHeaders(streamed, 'b/model-b', '2');
    });
  }

  it('an upstream 429 passed on, and the gateway’s own 429 (no upstream asked)', async () => {
    const upstream = await fakeUpstream();
    upstream.respondWith(() => ({
      type: 'http-error',
      status: 429,
      errorType: 'rate_limit_error',
      message: 'slow down',
      headers: { 'retry-after': '7' },
    }));
    const gateway = await gatewayFor({
      server: {
        apiKeys: [
          { key, name: 'team', limits: { requestsPerMinute: 1000 } },
          { key: 'sk-scarce-0123456789', name: 'scarce', limits: { requestsPerMinute: 1 } },
        ],
      },
      providers: { a: testProvider('openai-compatible', `${upstream.url}/v1`) },
    });
    for (const route of routes) {
      const passedOn = await postJson(`${gateway.baseUrl}${route.path}`, route.body('a/model-a'), auth);
      expect(passedOn.status).toBe(429);
      expectOperationalHeaders(passedOn, 'a/model-a', '1');
    }
    const scarce = { authorization: 'Bearer sk-scarce-0123456789' };
    await postJson(`${gateway.baseUrl}/v1/chat/completions`, routes[0].body('a/model-a'), scarce);
    for (const route of routes) {
      const refused = await postJson(`${gateway.baseUrl}${route.path}`, route.body('a/model-a'), scarce);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.text)).toMatchObject(route.envelope);
      expect(refused.headers.get('x-request-id')).toMatch(/\S/);
      expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('x-interlingua-attempts')).toBe('0');
      expect(refused.headers.get('x-interlingua-model')).toBeNull();
    }
  });
});

describe('the request id on answers', () => {
  it('a whole reply, a stream and a token count each carry the client’s x-request-id, once', async () => {
    const upstream = await fakeUpstream();
    upstream.respondWith(() => ({ type: 'chat', content: 'hello' }));
    const gateway = await gatewayFor({ providers: { a: testProvider('openai-compatible', `${upstream.url}/v1`) } });
    const named = (id: string) => ({ 'x-request-id': id });
    for (const route of routes) {
      const whole = await postJson(`${gateway.baseUrl}${route.path}`, route.body('a/model-a'), named(`req-whole-${route.api.length}`));
      expect(whole.status).toBe(200);
      expect(whole.headers.get('x-request-id')).toBe(`req-whole-${route.api.length}`);
      const streamed = await postJson(
        `${gateway.baseUrl}${route.path}`,
        { ...route.body('a/model-a'), stream: true },
        named(`req-stream-${route.api.length}`),
      );
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('x-request-id')).toBe(`req-stream-${route.api.length}`);
    }
    const counted = await postJson(
      `${gateway.baseUrl}/v1/messages/count_tokens`,
      { model: 'a/model-a', messages: [{ role: 'user', content: 'hi' }] },
      named('req-count'),
    );
    expect(counted.status).toBe(200);
    expect(counted.headers.get('x-request-id')).toBe('req-count');
    expect(counted.headers.get('x-token-count')).toBe('estimate');
  });
});
