/**
 * A non-streaming request over an upstream whose generation never ends: the folded reply is bounded by
 * the provider's `limits.maxResponseBytes` (502 upstream_response_too_large) and by
 * `server.wholeReplyTimeoutMs` (504 upstream_timeout), in the API's envelope, and the upstream request
 * is torn down; a streamed reply is bounded by neither.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEndlessUpstream, type EndlessUpstream } from '../helpers/endless-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

/** Above the Anthropic adapter's longest whole reply (21,333 tokens): the upstream streams and the gateway folds. */
const streamedMaxTokens = 64_000;

describe('a non-streaming reply over an upstream that never ends', () => {
  let upstream: EndlessUpstream | undefined;
  let gateway: StartedGateway | undefined;

  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  async function start(
    server: Record<string, unknown>,
    upstreamOptions: { deltaText: string; intervalMs: number },
    limits?: Record<string, number>,
  ) {
    upstream = await startEndlessUpstream(upstreamOptions);
    gateway = await startGateway({
      server,
      providers: {
        claude: testProvider('anthropic', upstream.url, { apiKey: 'sk-ant-test', ...(limits ? { limits } : {}) }),
        local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
      },
    });
    return { upstream, gateway };
  }

  function post(baseUrl: string, path: string, body: Record<string, unknown>) {
    return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  it('answers 502 upstream_response_too_large once the folded text passes maxResponseBytes, and closes the upstream', async () => {
    const started = await start({}, { deltaText: 'x'.repeat(200), intervalMs: 2 }, { maxResponseBytes: 4096 });
    const response = await post(started.gateway.baseUrl, '/v1/chat/completions', {
      model: 'claude/claude-sonnet-4-5',
      max_tokens: streamedMaxTokens,
      messages: [{ role: 'user', content: 'Count forever.' }],
    });
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('upstream_response_too_large');
    expect(body.error.message).toContain('providers.claude.limits.maxResponseBytes');
    await started.upstream.closed(0);
  });

  it('answers 504 upstream_timeout in the Messages envelope once wholeReplyTimeoutMs passes, and closes the upstream', async () => {
    const started = await start({ wholeReplyTimeoutMs: 700 }, { deltaText: 'x', intervalMs: 20 });
    const began = Date.now();
    const response = await post(started.gateway.baseUrl, '/v1/messages', {
      model: 'claude/claude-sonnet-4-5',
      max_tokens: streamedMaxTokens,
      messages: [{ role: 'user', content: 'Count forever.' }],
    });
    const elapsed = Date.now() - began;
    expect(response.status).toBe(504);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toContain('server.wholeReplyTimeoutMs');
    expect(elapsed).toBeGreaterThanOrEqual(650);
    expect(elapsed).toBeLessThan(5_000);
    await started.upstream.closed(0);
  });

  it('answers 504 when an upstream read whole never answers, before its own headers timeout', async () => {
    const started = await start({ wholeReplyTimeoutMs: 500 }, { deltaText: 'x', intervalMs: 20 });
    const response = await post(started.gateway.baseUrl, '/v1/chat/completions', {
      model: 'local/m',
      messages: [{ role: 'user', content: 'Think forever.' }],
    });
    expect(response.status).toBe(504);
    const body = (await response.json()) as { error: { code: string; type: string } };
    expect(body.error).toMatchObject({ code: 'upstream_timeout', type: 'timeout_error' });
    await started.upstream.closed(0);
  });

  it('does not bound a streamed reply by either', async () => {
    const started = await start({ wholeReplyTimeoutMs: 300 }, { deltaText: 'x'.repeat(200), intervalMs: 5 }, { maxResponseBytes: 4096 });
    const controller = new AbortController();
    const response = await fetch(`${started.gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m', stream: true, messages: [{ role: 'user', content: 'Count forever.' }] }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const until = Date.now() + 800;
    while (Date.now() < until) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    controller.abort();
    // Past both bounds, and still content, never an error frame.
    expect(received.length).toBeGreaterThan(3 * 4096);
    expect(received).not.toContain('"error"');
  });
});
