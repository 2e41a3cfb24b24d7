/** How the Ollama adapter fails: honest statuses before the first chunk, error events after, and cancellation. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderAdapter } from '../../../src/core/index.js';
import { createOllamaAdapter } from '../../../providers/ollama/index.js';
import type { FakeOllamaReply } from '../../helpers/fake-ollama-upstream.js';
import { startLoopbackServer } from '../../helpers/loopback-server.js';
import { chatRequest, collectEvents, lastEvent, ollamaConfig, providerContext, rejectionOf, textOf } from './ollama-test-kit.js';
import { adapter, upstream, useFakeOllama } from './ollama-fixture.js';

useFakeOllama();

afterEach(() => {
  vi.restoreAllMocks();
});

async function runToEnd(reply: FakeOllamaReply, target: ProviderAdapter = adapter) {
  upstream.enqueue(reply);
  return collectEvents(await target.stream(chatRequest(), providerContext()));
}

describe('ollama adapter: errors before the first chunk reject stream()', () => {
  it('keeps 404 and the upstream message for an unknown model', async () => {
    upstream.enqueue({ type: 'error', status: 404, message: 'model "nope:1b" not found, try pulling it first' });
    const error = await rejectionOf(adapter.stream(chatRequest(), providerContext()));
    expect(error).toMatchObject({ status: 404, type: 'not_found_error', message: 'model "nope:1b" not found, try pulling it first' });
  });

  it('passes an upstream 500 on, naming the provider', async () => {
    upstream.enqueue({ type: 'error', status: 500, message: 'llama runner process has terminated' });
    const error = await rejectionOf(adapter.stream(chatRequest(), providerContext()));
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/'local'.*HTTP 500.*llama runner process has terminated/);
  });

  it('passes 429 on with retry-after', async () => {
    upstream.enqueue({ type: 'error', status: 429, message: 'too many requests', headers: { 'retry-after': '7' } });
    const error = await rejectionOf(adapter.stream(chatRequest(), providerContext()));
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', retryAfter: '7' });
  });

  it('reads non-JSON error bodies (a proxy page) without logging to stdout', async () => {
    const log = vi.spyOn(console, 'log');
    upstream.enqueue({ type: 'raw', status: 503, contentType: 'text/html', body: '<h1>Service Unavailable</h1>' });
    const error = await rejectionOf(adapter.stream(chatRequest(), providerContext()));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/HTTP 503.*Service Unavailable/);
    expect(log).not.toHaveBeenCalled();
  });

  it('rejects with 502 when a 200 stream ends before its first line', async () => {
    upstream.enqueue({ type: 'chat', content: 'never', endAfterChunks: 0 });
    const error = await rejectionOf(adapter.stream(chatRequest(), providerContext()));
    expect(error).toMatchObject({ status: 502, code: 'upstream_stream_error' });
    expect(error.message).toMatch(/without a done chunk/);
  });

  it('rejects with 502 when the first line is an in-stream error', async () => {
    upstream.enqueue({ type: 'chat', content: 'never', streamError: { afterChunks: 0, message: 'out of memory' } });
    const error = await rejectionOf(adapter.stream(chatRequest(), providerContext()));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/out of memory/);
  });

  it('maps connection refused to 502', async () => {
    const closed = await startLoopbackServer(() => undefined);
    await closed.close();
    const unreachable = createOllamaAdapter(ollamaConfig(closed.url));
    try {
      const error = await rejectionOf(unreachable.stream(chatRequest(), providerContext()));
      expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
      expect(error.message).toMatch(/ECONNREFUSED/);
    } finally {
      await unreachable.close?.();
    }
  });

  // undici arms its header and body timers on a ~1 s clock, so the upstream is slow by a clear margin.
  it('maps a slow upstream past headersMs to 504', async () => {
    const impatient = createOllamaAdapter(ollamaConfig(upstream.url, { timeouts: { connectMs: 1000, headersMs: 100, bodyMs: 5000 } }));
    try {
      upstream.enqueue({ type: 'chat', content: 'late', headersDelayMs: 3000 });
      const error = await rejectionOf(impatient.stream(chatRequest(), providerContext()));
      expect(error).toMatchObject({ status: 504, type: 'timeout_error' });
    } finally {
      await impatient.close?.();
    }
  });
});

describe('ollama adapter: failures after the first chunk become one error event', () => {
  it('reports a stream that ends without done as 502', async () => {
    const events = await runToEnd({ type: 'chat', content: 'Hello there', endAfterChunks: 2 });
    expect(textOf(events)).toBe('Hello ');
    const last = lastEvent(events);
    expect(last.type === 'error' && last.error.status).toBe(502);
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(0);
  });

  it('reports an in-stream error line as 502 with its message', async () => {
    const events = await runToEnd({
      type: 'chat',
      content: 'Hello there',
      streamError: { afterChunks: 2, message: 'model runner crashed' },
    });
    const last = lastEvent(events);
    expect(last.type === 'error' && last.error).toMatchObject({ status: 502, message: expect.stringMatching(/model runner crashed/) });
  });

  it('reports a dropped connection as 502', async () => {
    const events = await runToEnd({ type: 'chat', content: 'Hello there', destroyAfterChunks: 2 });
    expect(textOf(events)).toBe('Hello ');
    const last = lastEvent(events);
    expect(last.type === 'error' && last.error.status).toBe(502);
  });

  it('reports a silence longer than bodyMs as 504', async () => {
    const impatient = createOllamaAdapter(ollamaConfig(upstream.url, { timeouts: { connectMs: 1000, headersMs: 5000, bodyMs: 100 } }));
    try {
      const events = await runToEnd({ type: 'chat', content: 'slow', pieceSize: 2, chunkDelayMs: 3000 }, impatient);
      const last = lastEvent(events);
      expect(last.type === 'error' && last.error.status).toBe(504);
    } finally {
      await impatient.close?.();
    }
  });
});

describe('ollama adapter: cancellation flows upstream', () => {
  it('aborts the upstream request when the client goes away mid-stream', async () => {
    upstream.enqueue({ type: 'chat', content: 'Hello there', holdOpen: true });
    const controller = new AbortController();
    const events = await adapter.stream(chatRequest(), providerContext(controller.signal));
    const sent = upstream.requests.at(-1);
    if (!sent) throw new Error('nothing reached the upstream');
    const iterator = events[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'response-start' });
    expect((await iterator.next()).value).toMatchObject({ type: 'text-delta' });
    controller.abort();
    await upstream.waitForAbort(sent);
    const rest = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(rest.at(-1)).toMatchObject({ type: 'error', error: { code: 'client_closed_request' } });
  });

  it('aborts while waiting for the first chunk, and stream() rejects', async () => {
    upstream.enqueue({ type: 'chat', content: 'late', headersDelayMs: 5000 });
    const controller = new AbortController();
    const pending = adapter.stream(chatRequest(), providerContext(controller.signal));
    const sent = await upstream.nextRequest();
    controller.abort();
    const error = await rejectionOf(pending);
    expect(error.code).toBe('client_closed_request');
    await upstream.waitForAbort(sent);
  });

  it.each(['response-start', 'text-delta'])('destroys the upstream body when the consumer stops at %s', async (stopAt) => {
    upstream.enqueue({ type: 'chat', content: 'Hello there', holdOpen: true });
    const events = await adapter.stream(chatRequest(), providerContext());
    const sent = upstream.requests.at(-1);
    if (!sent) throw new Error('nothing reached the upstream');
    for await (const event of events) if (event.type === stopAt) break;
    await upstream.waitForAbort(sent);
  });

  it('never sends a request whose signal is already aborted', async () => {
    const before = upstream.requests.length;
    const error = await rejectionOf(adapter.stream(chatRequest(), providerContext(AbortSignal.abort())));
    expect(error.code).toBe('client_closed_request');
    expect(upstream.requests.length).toBe(before);
  });
});
