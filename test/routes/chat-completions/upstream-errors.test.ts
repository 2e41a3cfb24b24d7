/**
 * Upstream failures through the gateway, for every provider kind: statuses kept or mapped honestly
 * (429/4xx kept, 5xx and refused connections 502, timeouts 504), in-band errors after the SSE headers,
 * and the client's disconnect aborting the upstream request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, sseFrames } from '../../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';
import { preambleText, providerKinds, waitForUpstreamAbort, type ProviderKind } from './provider-kinds.js';

const kinds = providerKinds();
let gateway: StartedGateway;
let closedPort: number;

/** A port nothing listens on: bound once, then released. */
async function findClosedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Timeouts are small for the `-slow` twins; undici checks them on a ~1 s timer, so fakes wait a few seconds.
const shortTimeouts = { timeouts: { connectMs: 1_000, headersMs: 300, bodyMs: 300 } };

beforeAll(async () => {
  await Promise.all(kinds.map((kind) => kind.start()));
  closedPort = await findClosedPort();
  const providers: Record<string, Record<string, unknown>> = {};
  for (const kind of kinds) {
    providers[kind.name] = kind.providerEntry();
    providers[`${kind.name}-slow`] = kind.providerEntry(shortTimeouts);
  }
  providers['dead-openai'] = testProvider('openai-compatible', `http://127.0.0.1:${closedPort}/v1`, { toolCalling: 'native' });
  providers['dead-anthropic'] = testProvider('anthropic', `http://127.0.0.1:${closedPort}`, { apiKey: 'k' });
  providers['dead-ollama'] = testProvider('ollama', `http://127.0.0.1:${closedPort}`, { toolCalling: 'native' });
  gateway = await startGateway({ providers });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(kinds.map((kind) => kind.close()));
});

type ErrorEnvelope = { error: { message: string; type: string; param: string | null; code: string | null } };

function chatBody(model: string, extra: Record<string, unknown> = {}) {
  return { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 64, ...extra };
}

function parseError(text: string): ErrorEnvelope['error'] {
  const body = JSON.parse(text) as ErrorEnvelope;
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  return body.error;
}

/** The frames of a stream that failed after its headers: chunks, exactly one error frame last, no [DONE]. */
function failedStream(text: string): { content: string; error: ErrorEnvelope['error'] } {
  const frames = sseFrames(text);
  expect(frames).not.toContain('[DONE]');
  const parsed = frames.map((frame) => JSON.parse(frame) as Record<string, unknown>);
  const errorFrames = parsed.filter((frame) => 'error' in frame);
  expect(errorFrames).toHaveLength(1);
  expect(parsed.at(-1)).toBe(errorFrames[0]);
  const content = parsed
    .slice(0, -1)
    .map((chunk) => (chunk.choices as { delta: { content?: string } }[])[0]?.delta.content ?? '')
    .join('');
  return { content, error: parseError(frames.at(-1) as string) };
}

describe.each(kinds)('upstream failures from $type', (kind: ProviderKind) => {
  const model = () => `${kind.name}/${kind.model}`;

  it('keeps a 429 with its message and retry-after', async () => {
    kind.scriptHttpError(429, 'Slow down, please', { 'retry-after': '7' });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(model()));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    const error = parseError(response.text);
    expect(error.type).toBe('rate_limit_error');
    expect(error.message).toContain('Slow down, please');
  });

  it('keeps a 429 for streaming requests too (the failure comes before the SSE headers)', async () => {
    kind.scriptHttpError(429, 'Slow down, please', { 'retry-after': '3' });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(model(), { stream: true }));
    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('retry-after')).toBe('3');
  });

  it('reaches the SDK as RateLimitError with the retry-after header', async () => {
    kind.scriptHttpError(429, 'Slow down, please', { 'retry-after': '9' });
    const error = await gateway
      .client()
      .chat.completions.create({ model: model(), messages: [{ role: 'user', content: 'hi' }], max_tokens: 64 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.headers?.get('retry-after')).toBe('9');
    expect(rateLimit.message).toContain('Slow down, please');
  });

  it('keeps a 400 with the upstream message', async () => {
    kind.scriptHttpError(400, 'messages.0.content: field required upstream');
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(model()));
    expect(response.status).toBe(400);
    const error = parseError(response.text);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toContain('messages.0.content: field required upstream');
  });

  it('passes a 500 on, naming the provider', async () => {
    kind.scriptHttpError(500, 'the model runner crashed');
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(model()));
    expect(response.status).toBe(500);
    const error = parseError(response.text);
    expect(error.type).toBe('upstream_error');
    expect(error.message).toContain(`'${kind.name}'`);
    expect(error.message).toContain('the model runner crashed');
  });

  it('ends a stream that fails after its headers with exactly one in-band error frame and no [DONE]', async () => {
    kind.scriptMidStreamError('upstream exploded mid-way');
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(model(), { stream: true }));
    expect(response.status).toBe(200);
    const { content, error } = failedStream(response.text);
    expect(preambleText.startsWith(content)).toBe(true);
    expect(content.length).toBeGreaterThan(0);
    expect(error.message).toContain('upstream exploded mid-way');
  });

  it('reports a stream cut by the upstream as one in-band error frame', async () => {
    kind.scriptCutStream();
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(model(), { stream: true }));
    expect(response.status).toBe(200);
    const { error } = failedStream(response.text);
    expect(error.type).toBe('upstream_error');
  });

  it('makes the SDK stream reject with an APIError carrying the upstream message', async () => {
    kind.scriptMidStreamError('upstream exploded for the SDK');
    const stream = gateway
      .client()
      .chat.completions.stream({ model: model(), messages: [{ role: 'user', content: 'hi' }], max_tokens: 64 });
    const error = await stream.finalChatCompletion().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('upstream exploded for the SDK');
  });

  it('turns a failure of a non-streaming generation into an error envelope', async () => {
    kind.scriptMidStreamError('upstream exploded, no stream');
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(model()));
    // Ollama answers a non-streaming generation that fails with HTTP 500 and its error (the fake follows
    // server/routes.go), which is passed on; the others fail after a 2xx head, an upstream failure: 502.
    expect(response.status).toBe(kind.type === 'ollama' ? 500 : 502);
    expect(parseError(response.text).message).toContain('upstream exploded, no stream');
  });

  it('aborts the upstream request when the client disconnects mid-stream', async () => {
    kind.scriptHeldStream();
    const controller = new AbortController();
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody(model(), { stream: true })),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = '';
    while (!received.includes('"content":"W')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before any content');
      received += new TextDecoder().decode(value);
    }
    controller.abort();
    const aborted = await waitForUpstreamAbort(kind);
    expect(aborted.aborted).toBe(true);
  });

  it('aborts the upstream request when a non-streaming client disconnects while it waits', async () => {
    kind.scriptHeldStream();
    const before = kind.chatRequests().length;
    const controller = new AbortController();
    const pending = fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody(model())),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    while (kind.chatRequests().length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    expect((await waitForUpstreamAbort(kind)).aborted).toBe(true);
  });
});

describe('connection failures and timeouts', () => {
  it.each(['dead-openai', 'dead-anthropic', 'dead-ollama'])('a refused connection to %s is a 502', async (provider) => {
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(`${provider}/some-model`));
    expect(response.status).toBe(502);
    const error = parseError(response.text);
    expect(error.type).toBe('upstream_error');
    expect(error.message).toContain(`'${provider}'`);
  });

  it('an upstream that sends no headers within headersMs is a 504, for every kind', async () => {
    const started = Date.now();
    const responses = await Promise.all(
      kinds.map(async (kind) => {
        kind.scriptSlowHeaders(3_000);
        const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, chatBody(`${kind.name}-slow/${kind.model}`));
        return { kind: kind.type, status: response.status, error: parseError(response.text) };
      }),
    );
    for (const response of responses) {
      expect(response, response.kind).toMatchObject({ status: 504, error: { type: 'timeout_error' } });
    }
    // Well before the upstream would have answered.
    expect(Date.now() - started).toBeLessThan(2_900);
  });

  it('a streaming request whose upstream is too slow to answer is a 504 before any SSE', async () => {
    const kind = kinds[1] as ProviderKind;
    kind.scriptSlowHeaders(3_000);
    const response = await postJson(
      `${gateway.baseUrl}/v1/chat/completions`,
      chatBody(`${kind.name}-slow/${kind.model}`, { stream: true }),
    );
    expect(response.status).toBe(504);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('an upstream that falls silent mid-stream for longer than bodyMs ends the stream with an in-band timeout', async () => {
    const results = await Promise.all(
      kinds.map(async (kind) => {
        kind.scriptHeldStream();
        const response = await postJson(
          `${gateway.baseUrl}/v1/chat/completions`,
          chatBody(`${kind.name}-slow/${kind.model}`, { stream: true }),
        );
        return { kind: kind.type, status: response.status, ...failedStream(response.text) };
      }),
    );
    for (const result of results) expect(result, result.kind).toMatchObject({ status: 200, error: { type: 'timeout_error' } });
  });
});
