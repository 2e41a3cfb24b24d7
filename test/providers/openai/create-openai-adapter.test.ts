/** The OpenAI adapter against the fake OpenAI upstream: events, headers, model listing, embeddings and error mapping. */
import { cancellationFromSignal } from '../../../src/core/cancellation.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { defaultUpstreamLimits } from '../../../src/config/normalize-config.js';
import type { ChatRequest } from '../../../src/core/chat-request.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { ProviderAdapter, ProviderContext } from '../../../src/core/provider-adapter.js';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { createOpenAiAdapter } from '../../../providers/openai/create-openai-adapter.js';
import { fakeOpenAiEmbedding, startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';

let upstream: FakeOpenAiUpstream;
let adapter: ProviderAdapter;

function providerConfig(baseUrl: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    name: 'up',
    type: 'openai-compatible',
    baseUrl,
    apiKey: 'sk-up',
    headers: { 'x-extra': 'yes' },
    timeouts: { connectMs: 1_000, headersMs: 5_000, bodyMs: 5_000 },
    limits: { ...defaultUpstreamLimits },
    toolCalling: 'native',
    models: {},
    maxConnections: 4,
    ...overrides,
  };
}

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream({ models: ['a-model', 'b/model'] });
  adapter = createOpenAiAdapter(providerConfig(`${upstream.url}/v1`), 'openai-compatible');
});

afterAll(async () => {
  await adapter?.close?.();
  await upstream?.close();
});

const request: ChatRequest = {
  model: { id: 'up/m', provider: 'up', providerType: 'openai-compatible', model: 'm', family: 'generic-json', toolCalling: 'native' },
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
};

function context(signal = new AbortController().signal): ProviderContext {
  return { cancellation: cancellationFromSignal(signal), requestId: 'request-1', log: silentLogger };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!GatewayError.isInstance(outcome)) throw new Error(`expected a GatewayError, got ${String(outcome)}`);
  return outcome;
}

describe('stream', () => {
  it('streams text and usage, with the configured key, extra headers and forwarded client headers', async () => {
    upstream.enqueue({ type: 'chat', content: 'Hello there', usage: { prompt_tokens: 4, completion_tokens: 2 } });
    const events = await collect(await adapter.stream({ ...request, forwardHeaders: { 'x-forwarded-thing': 'ok' } }, context()));
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => (event as { delta: string }).delta)
        .join(''),
    ).toBe('Hello there');
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      reason: { unified: 'stop' },
      usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 },
    });
    const headers = upstream.chatRequests().at(-1)?.headers;
    expect(headers).toMatchObject({ authorization: 'Bearer sk-up', 'x-extra': 'yes', 'x-forwarded-thing': 'ok' });
  });

  it('resolves only after the upstream headers, so an HTTP error rejects', async () => {
    upstream.enqueue({
      type: 'http-error',
      status: 401,
      message: 'Incorrect API key provided',
      errorType: 'invalid_request_error',
      code: 'invalid_api_key',
    });
    const error = await rejection(adapter.stream(request, context()));
    // The gateway's own key was refused (config): a 502, the upstream's status kept for retries and fallbacks.
    expect(error).toMatchObject({ status: 502, type: 'upstream_error', code: 'upstream_authentication_failed', upstreamStatus: 401 });
    expect((error as Error).message).not.toContain('Incorrect API key');
  });

  it.each([
    [404, 'not_found_error'],
    [413, 'invalid_request_error'],
    [422, 'invalid_request_error'],
  ])('keeps %i as %s', async (status, type) => {
    upstream.enqueue({ type: 'http-error', status, message: `fake ${status}` });
    expect(await rejection(adapter.stream(request, context()))).toMatchObject({ status, type, message: `fake ${status}` });
  });

  it.each([500, 502, 503])('passes %i on with the status in the code', async (status) => {
    upstream.enqueue({ type: 'http-error', status, message: 'broken', errorType: 'server_error' });
    const error = await rejection(adapter.stream(request, context()));
    expect(error).toMatchObject({ status, type: 'upstream_error' });
    expect(error.message).toContain(`HTTP ${status}`);
  });

  it('turns a non-JSON error page into a 502 that still says what happened', async () => {
    upstream.enqueue({ type: 'raw', status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' });
    const error = await rejection(adapter.stream(request, context()));
    expect(error.status).toBe(502);
    expect(error.message).toContain('HTTP 502');
  });

  it('aborts the upstream request when the signal fires mid-stream', async () => {
    upstream.enqueue({ type: 'chat', content: 'abcdefghijkl', holdAfterChunks: 3 });
    const controller = new AbortController();
    const events = await adapter.stream(request, context(controller.signal));
    const iterator = events[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort(new Error('client closed the connection'));
    const rest: StreamEvent[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    const upstreamRequest = upstream.chatRequests().at(-1);
    if (!upstreamRequest) throw new Error('no upstream request');
    await upstream.waitForAbort(upstreamRequest);
    expect(rest.at(-1)?.type).toBe('error');
  });

  it('times out waiting for headers with a 504', async () => {
    const slow = createOpenAiAdapter(
      providerConfig(`${upstream.url}/v1`, { timeouts: { connectMs: 1_000, headersMs: 200, bodyMs: 5_000 } }),
      'openai-compatible',
    );
    try {
      upstream.enqueue({ type: 'chat', content: 'late', headersDelayMs: 2_500 });
      expect(await rejection(slow.stream(request, context()))).toMatchObject({ status: 504, type: 'timeout_error' });
    } finally {
      await slow.close?.();
    }
  });
});

describe('stream, when the client reads the reply whole', () => {
  const whole = (signal?: AbortSignal): ProviderContext => ({ ...context(signal), wholeReply: true });

  async function wholeAndStreamed(reply: Parameters<FakeOpenAiUpstream['enqueue']>[0]): Promise<[StreamEvent[], StreamEvent[]]> {
    upstream.enqueue(reply);
    const wholeEvents = await collect(await adapter.stream(request, whole()));
    upstream.enqueue(reply);
    const streamedEvents = await collect(await adapter.stream(request, context()));
    return [wholeEvents, streamedEvents];
  }

  /** Consecutive deltas of one kind merged: a whole reply comes as one delta, a stream as many. */
  function merged(events: StreamEvent[]): unknown[] {
    const result: Record<string, unknown>[] = [];
    for (const event of events) {
      const last = result.at(-1);
      const field = event.type === 'tool-call-delta' ? 'argumentsDelta' : 'delta';
      const sameRun =
        last !== undefined &&
        last.type === event.type &&
        field in event &&
        (event.type !== 'tool-call-delta' || last.index === event.index);
      if (sameRun) last[field] = `${String(last[field])}${String((event as Record<string, unknown>)[field])}`;
      else result.push({ ...event });
    }
    return result;
  }

  it('asks the upstream for one JSON body, without stream_options', async () => {
    upstream.enqueue({ type: 'chat', content: 'Hello there' });
    await collect(await adapter.stream(request, whole()));
    const sent = upstream.chatRequests().at(-1);
    expect(sent?.body).toMatchObject({ stream: false });
    expect(sent?.body).not.toHaveProperty('stream_options');
    expect(sent?.headers.accept).toBe('application/json');
  });

  it('yields the same events as the streamed reply for text, reasoning, parallel tool calls and usage', async () => {
    const [wholeEvents, streamedEvents] = await wholeAndStreamed({
      type: 'chat',
      reasoning: 'Two cities, two calls.',
      content: 'Checking both.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 5 },
    });
    expect(merged(wholeEvents)).toEqual(merged(streamedEvents));
    expect(wholeEvents.filter((event) => event.type === 'tool-call-start').map((event) => event.index)).toEqual([0, 1]);
    expect(wholeEvents.at(-1)).toMatchObject({
      type: 'finish',
      reason: { unified: 'tool-calls' },
      usage: { inputTokens: 9, outputTokens: 5 },
    });
  });

  it('keeps a length finish as it is', async () => {
    const [wholeEvents, streamedEvents] = await wholeAndStreamed({ type: 'chat', content: 'cut', finishReason: 'length' });
    expect(wholeEvents.at(-1)).toEqual(streamedEvents.at(-1));
    expect(wholeEvents.at(-1)).toMatchObject({ reason: { unified: 'length' } });
  });

  it('rejects an error body sent with 200 as a 502 carrying the upstream message', async () => {
    upstream.enqueue({ type: 'chat', content: 'never', streamError: { afterChunks: 0, message: 'model overloaded' } });
    const error = await rejection(adapter.stream(request, whole()));
    expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
    expect(error.message).toContain('model overloaded');
  });

  it.each([
    ['a body that is not JSON', { type: 'raw', status: 200, contentType: 'application/json', body: '<html>oops</html>' }],
    ['a JSON body that is not an object', { type: 'raw', status: 200, contentType: 'application/json', body: '[1,2]' }],
    ['a body cut off mid-JSON', { type: 'chat', content: 'abcdefghij', endAfterChunks: 2 }],
  ] as const)('rejects %s as a 502', async (_name, reply) => {
    upstream.enqueue(reply);
    expect(await rejection(adapter.stream(request, whole()))).toMatchObject({ status: 502, type: 'upstream_error' });
  });

  it('rejects a connection dropped mid-body as a 502', async () => {
    upstream.enqueue({ type: 'chat', content: 'abcdefghij', cutAfterChunks: 2 });
    expect(await rejection(adapter.stream(request, whole()))).toMatchObject({ status: 502 });
  });

  it('aborts the upstream request when the signal fires while the body is awaited', async () => {
    upstream.enqueue({ type: 'chat', content: 'abcdefghijkl', holdAfterChunks: 1 });
    const controller = new AbortController();
    const pending = rejection(adapter.stream(request, whole(controller.signal)));
    while (!upstream.chatRequests().length) await new Promise((resolve) => setTimeout(resolve, 5));
    const upstreamRequest = upstream.chatRequests().at(-1);
    if (!upstreamRequest) throw new Error('no upstream request');
    controller.abort(new Error('client closed the connection'));
    await upstream.waitForAbort(upstreamRequest);
    // Said as what it is (the client left), not as an upstream failure.
    expect(await pending).toMatchObject({ status: 499, code: 'client_closed_request' });
  });
});

describe('listModels', () => {
  it('lists the upstream models with their metadata', async () => {
    expect(await adapter.listModels?.(context())).toEqual([
      { id: 'a-model', created: 1_700_000_000, ownedBy: 'fake-org' },
      { id: 'b/model', created: 1_700_000_000, ownedBy: 'fake-org' },
    ]);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer sk-up');
  });

  it('rejects with a mapped error when listing fails', async () => {
    upstream.enqueueModels({ type: 'http-error', status: 503, message: 'down' });
    expect(await rejection(adapter.listModels?.(context()) ?? Promise.resolve())).toMatchObject({ status: 503 });
  });
});

describe('embed', () => {
  it('sends the given fields and returns vectors and usage', async () => {
    const result = await adapter.embed?.({ model: 'e', input: ['ab'], dimensions: 2, encodingFormat: 'float', user: 'u' }, context());
    expect(upstream.requests.at(-1)?.body).toEqual({ model: 'e', input: ['ab'], dimensions: 2, encoding_format: 'float', user: 'u' });
    expect(result).toEqual({ data: [{ index: 0, embedding: fakeOpenAiEmbedding('ab', 2) }], usage: { promptTokens: 2, totalTokens: 2 } });
  });
});

describe('without an API key', () => {
  it('sends no Authorization header and never falls back to OPENAI_API_KEY', async () => {
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-the-process-environment';
    const keyless = createOpenAiAdapter(providerConfig(`${upstream.url}/v1`, { apiKey: undefined }), 'openai-compatible');
    try {
      upstream.enqueue({ type: 'chat', content: 'ok' });
      await collect(await keyless.stream(request, context()));
      expect(upstream.chatRequests().at(-1)?.headers.authorization).toBeUndefined();
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
      await keyless.close?.();
    }
  });
});

describe('connection failures', () => {
  it('maps a refused connection to 502 naming the provider', async () => {
    const dead = await startFakeOpenAiUpstream();
    const deadPort = dead.port;
    await dead.close();
    const unreachable = createOpenAiAdapter(providerConfig(`http://127.0.0.1:${deadPort}/v1`), 'openai-compatible');
    try {
      const error = await rejection(unreachable.stream(request, context()));
      expect(error).toMatchObject({ status: 502, type: 'upstream_error', code: 'upstream_unavailable' });
      expect(error.message).toContain("'up'");
    } finally {
      await unreachable.close?.();
    }
  });
});
