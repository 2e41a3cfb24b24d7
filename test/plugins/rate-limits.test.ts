/**
 * Rate limits per key and server-wide, with the real `openai` client: requests and tokens per minute,
 * concurrent streams; a 429 in the API's own envelope with `retry-after`, and `x-ratelimit-*` headers on
 * every limited reply.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../helpers/gateway-with-openai-upstream.js';
import { formatReset } from '../../src/plugins/rate-limit-headers.js';
import { testProvider } from '../helpers/start-gateway.js';

const requestsKey = 'sk-requests-0123456789';
const tokensKey = 'sk-tokens-0123456789';
const streamsKey = 'sk-streams-0123456789';
const freeKey = 'sk-free-0123456789';
const ask = [{ role: 'user' as const, content: 'hi' }];

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  server: {
    apiKeys: [
      { key: requestsKey, name: 'requests', limits: { requestsPerMinute: 2 } },
      // The fake upstream reports 18 tokens a reply.
      { key: tokensKey, name: 'tokens', limits: { tokensPerMinute: 30 } },
      { key: streamsKey, name: 'streams', limits: { concurrentStreams: 1 } },
      freeKey,
    ],
    limits: { requestsPerMinute: 1000 },
  },
  providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
}));

async function post(path: string, key: string, body: Record<string, unknown>) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe('rate limits', () => {
  it('count requests per key, with headers on each reply, then refuse with a 429 and retry-after', async () => {
    upstream.enqueue({ type: 'chat', content: 'one' }, { type: 'chat', content: 'two' });
    const first = await post('/v1/chat/completions', requestsKey, { model: 'local/m', messages: ask });
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(first.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(ms|s)$|^\d+m\d+s$/);
    const second = await post('/v1/chat/completions', requestsKey, { model: 'local/m', messages: ask, stream: true });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const refused = await post('/v1/chat/completions', requestsKey, { model: 'local/m', messages: ask });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: expect.stringContaining("'requests'") },
    });
    const messages = await post('/v1/messages', requestsKey, { model: 'local/m', max_tokens: 10, messages: ask });
    expect(messages.status).toBe(429);
    expect(JSON.parse(messages.body)).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('the real client sees a RateLimitError', async () => {
    const client = gateway.client(requestsKey);
    await expect(client.chat.completions.create({ model: 'local/m', messages: ask })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('count tokens from the replies’ usage and refuse once the minute’s tokens are spent', async () => {
    upstream.enqueue({ type: 'chat', content: 'a' }, { type: 'chat', content: 'b' });
    const first = await post('/v1/chat/completions', tokensKey, { model: 'local/m', messages: ask });
    expect(first.headers.get('x-ratelimit-remaining-tokens')).toBe('30');
    const second = await post('/v1/chat/completions', tokensKey, { model: 'local/m', messages: ask });
    expect(second.headers.get('x-ratelimit-remaining-tokens')).toBe('12');
    const refused = await post('/v1/chat/completions', tokensKey, { model: 'local/m', messages: ask });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0');
  });

  it('allow one stream at a time for a key limited so, and free the slot when it ends', async () => {
    upstream.enqueue({ type: 'chat', content: 'held open', holdAfterChunks: 2 });
    const controller = new AbortController();
    const held = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${streamsKey}` },
      body: JSON.stringify({ model: 'local/m', messages: ask, stream: true }),
      signal: controller.signal,
    });
    expect(held.status).toBe(200);
    const second = await post('/v1/chat/completions', streamsKey, { model: 'local/m', messages: ask, stream: true });
    expect(second.status).toBe(429);
    expect(second.body).toContain('1 concurrent streams');
    controller.abort();
    await held.body?.cancel().catch(() => {});
    upstream.enqueue({ type: 'chat', content: 'now' });
    let after = await post('/v1/chat/completions', streamsKey, { model: 'local/m', messages: ask, stream: true });
    for (let attempt = 0; after.status === 429 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await post('/v1/chat/completions', streamsKey, { model: 'local/m', messages: ask, stream: true });
    }
    expect(after.status).toBe(200);
    // A non-streaming request takes no stream slot.
    upstream.enqueue({ type: 'chat', content: 'whole' });
    expect((await post('/v1/chat/completions', streamsKey, { model: 'local/m', messages: ask })).status).toBe(200);
  });

  it('applies the server-wide limit to keys without their own', async () => {
    upstream.enqueue({ type: 'chat', content: 'x' });
    const reply = await post('/v1/chat/completions', freeKey, { model: 'local/m', messages: ask });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-limit-requests')).toBe('1000');
  });

  it('formats resets as OpenAI does', () => {
    expect([formatReset(20), formatReset(12_000), formatReset(360_000), formatReset(61_500)]).toEqual(['20ms', '12s', '6m0s', '1m2s']);
  });
});
