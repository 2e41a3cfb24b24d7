/**
 * Traces end to end: the gateway exports over OTLP/HTTP to an in-process receiver, one SERVER span
 * per request with the GenAI attributes and a CLIENT child per upstream call, on Chat, Responses and
 * Messages, native and prompted, streamed and not; a client's traceparent is the parent; failures are
 * error spans; nothing is exported when traces are not configured.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiReply, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

const clientKey = 'sk-traces-0123456789abcdef';
const headers = { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' };
const serverKind = 2;
const clientKind = 3;
const errorStatus = 2;

let receiver: OtlpReceiver;
let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  upstream = await startFakeOpenAiUpstream();
  gateway = await startGateway({
    server: { apiKeys: [{ key: clientKey, name: 'team-t' }] },
    providers: {
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted', apiKey: 'sk-upstream-secret-4242' }),
      native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native', apiKey: 'sk-upstream-secret-4242' }),
    },
    telemetry: { otlpEndpoint: receiver.url, serviceName: 'interlingua-test' },
    // Only the `native` provider's models are priced (the cost tests below): $300 in, $100 out per million.
    prices: { 'native/*': { input: 300, output: 100 } },
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([upstream?.close(), receiver?.close()]);
});

/** A client's W3C trace context: every test request gets its own trace, to find its spans by. */
function clientTrace(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The first exported request span that `matches` (the request span ends after the reply is sent, so it is waited for). */
async function requestSpan(matches: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
  return vi.waitFor(
    async () => {
      await gateway.app.tracing?.flush();
      const found = receiver.spans.find((span) => span.kind === serverKind && matches(span));
      if (!found) throw new Error('not exported yet');
      return found;
    },
    { timeout: 5_000, interval: 20 },
  );
}

/** The trace's request span and its upstream children (exported before it: they end first). */
async function spansOf(traceId: string): Promise<{ request: ReceivedSpan; upstreamCalls: ReceivedSpan[] }> {
  const request = await requestSpan((span) => span.traceId === traceId);
  return { request, upstreamCalls: receiver.spans.filter((span) => span.traceId === traceId && span.kind === clientKind) };
}

const weatherTool = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

type Api = 'chat' | 'responses' | 'messages';

/** The same question, with one tool, in each API's wire shape. */
function requestFor(api: Api, model: string, stream: boolean): { path: string; body: Record<string, unknown> } {
  switch (api) {
    case 'chat':
      return {
        path: '/v1/chat/completions',
        body: {
          model,
          stream,
          max_tokens: 64,
          temperature: 0.2,
          top_p: 0.9,
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
          tools: [{ type: 'function', function: weatherTool }],
        },
      };
    case 'responses':
      return {
        path: '/v1/responses',
        body: {
          model,
          stream,
          max_output_tokens: 64,
          temperature: 0.2,
          top_p: 0.9,
          input: 'Weather in Paris?',
          tools: [{ type: 'function', ...weatherTool }],
        },
      };
    case 'messages':
      return {
        path: '/v1/messages',
        body: {
          model,
          stream,
          max_tokens: 64,
          temperature: 0.2,
          top_p: 0.9,
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
          tools: [{ name: weatherTool.name, input_schema: weatherTool.parameters }],
        },
      };
  }
}

async function send(api: Api, model: string, stream: boolean, traceparent: string): Promise<Response> {
  const { path, body } = requestFor(api, model, stream);
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...headers, traceparent },
    body: JSON.stringify(body),
  });
  // The whole body (streams to their end), so the request is over.
  await response.text();
  return response;
}

const lanes = [
  {
    lane: 'native',
    model: 'native/gpt-4o-mini',
    upstreamModel: 'gpt-4o-mini',
    reply: { type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  },
  {
    lane: 'prompted',
    model: 'local/qwen3-8b',
    upstreamModel: 'qwen3-8b',
    family: 'hermes',
    reply: { type: 'chat', content: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>' },
  },
] as const;

const cases = (['chat', 'responses', 'messages'] as const).flatMap((api) =>
  lanes.flatMap((lane) => [false, true].map((stream) => ({ api, stream, ...lane }))),
);

describe('one span per request, GenAI attributes', () => {
  it.each(cases)('$api, $lane lane, stream $stream', async ({ api, stream, lane, model, upstreamModel, reply, ...rest }) => {
    upstream.enqueue(reply as FakeOpenAiReply);
    const trace = clientTrace();
    const response = await send(api, model, stream, trace.traceparent);
    expect(response.status).toBe(200);
    const { request, upstreamCalls } = await spansOf(trace.traceId);

    expect(request.name).toBe(`chat ${upstreamModel}`);
    // The client's traceparent is the parent.
    expect(request.parentSpanId).toBe(trace.spanId);
    expect(request.resource['service.name']).toBe('interlingua-test');
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai_compatible',
      'gen_ai.request.model': upstreamModel,
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.request.stream': stream,
      'gen_ai.response.model': upstreamModel,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'server.address': '127.0.0.1',
      'server.port': upstream.port,
      'http.response.status_code': 200,
      'interlingua.lane': lane,
      'interlingua.provider': model.split('/')[0],
      'interlingua.key.name': 'team-t',
      'interlingua.tool_calls.parsed': 1,
    });
    expect(request.attributes['gen_ai.response.id']).toEqual(expect.any(String));
    expect(request.attributes['gen_ai.usage.output_tokens']).toBe(7);
    expect(request.attributes['gen_ai.usage.input_tokens']).toBe(11);
    expect(request.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
    expect(request.events.map((event) => event.name)).toContain('gen_ai.first_chunk');
    expect(request.attributes['interlingua.family']).toBe('family' in rest ? rest.family : undefined);
    expect(request.status.code).toBe(0);

    expect(upstreamCalls).toHaveLength(1);
    const [call] = upstreamCalls;
    expect(call?.parentSpanId).toBe(request.spanId);
    expect(call?.name).toBe(`chat ${upstreamModel}`);
    expect(call?.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai_compatible',
      'gen_ai.request.model': upstreamModel,
      'server.address': '127.0.0.1',
      'server.port': upstream.port,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(call?.events.map((event) => event.name)).toContain('gen_ai.first_chunk');
  });

  it('never carries a key: neither the client’s nor the upstream’s', async () => {
    upstream.enqueue({ type: 'chat', content: 'Sunny.' });
    const trace = clientTrace();
    await send('chat', 'native/gpt-4o-mini', false, trace.traceparent);
    await spansOf(trace.traceId);
    const exported = JSON.stringify(receiver.server.requests.map((request) => request.body));
    expect(exported).toContain('team-t');
    expect(exported).not.toContain(clientKey);
    expect(exported).not.toContain('sk-upstream-secret-4242');
  });

  it('starts a trace of its own without a traceparent', async () => {
    upstream.enqueue({ type: 'chat', content: 'Sunny.', model: 'gpt-4o-mini-2024-07-18' });
    const before = receiver.spans.length;
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'native/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
    const request = await requestSpan(
      (span) => receiver.spans.indexOf(span) >= before && span.attributes['gen_ai.response.model'] === 'gpt-4o-mini-2024-07-18',
    );
    expect(request.parentSpanId).toBeUndefined();
    expect(request.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
  });
});

describe('failures are error spans', () => {
  it('an upstream failure before the first byte', async () => {
    upstream.enqueue({ type: 'http-error', status: 500, message: 'upstream fell over (key sk-upstream-secret-4242)' });
    const trace = clientTrace();
    const response = await send('chat', 'native/gpt-4o-mini', false, trace.traceparent);
    expect(response.status).toBe(500);
    const { request, upstreamCalls } = await spansOf(trace.traceId);
    expect(request.status.code).toBe(errorStatus);
    expect(request.status.message).toEqual(expect.any(String));
    expect(request.status.message).not.toContain('sk-upstream-secret-4242');
    expect(request.attributes['http.response.status_code']).toBe(500);
    expect(request.attributes['error.type']).toEqual(expect.any(String));
    expect(upstreamCalls[0]?.status.code).toBe(errorStatus);
  });

  it('an upstream error mid-stream', async () => {
    upstream.enqueue({
      type: 'chat',
      content: 'It is sunny and warm in Paris today.',
      streamError: { afterChunks: 3, message: 'overloaded' },
    });
    const trace = clientTrace();
    const response = await send('chat', 'native/gpt-4o-mini', true, trace.traceparent);
    expect(response.status).toBe(200);
    const { request, upstreamCalls } = await spansOf(trace.traceId);
    expect(request.status.code).toBe(errorStatus);
    expect(request.attributes['interlingua.outcome']).toBe('error');
    expect(upstreamCalls[0]?.status.code).toBe(errorStatus);
    expect(upstreamCalls[0]?.status.message).toContain('overloaded');
  });

  it('a refused request (an unknown model) is a span with its 4xx status, not an error', async () => {
    const trace = clientTrace();
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...headers, traceparent: trace.traceparent },
      body: JSON.stringify({ model: 'nowhere/model', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(404);
    const { request, upstreamCalls } = await spansOf(trace.traceId);
    // Refused before any upstream call.
    expect(upstreamCalls).toEqual([]);
    expect(request.attributes['http.response.status_code']).toBe(404);
    expect(request.attributes['error.type']).toEqual(expect.any(String));
    expect(request.status.code).toBe(0);
  });
});

describe('cost on the span', () => {
  const chatOnce = (stream: boolean, traceparent: string, signal?: AbortSignal) =>
    fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...headers, traceparent },
      body: JSON.stringify({ model: 'native/gpt-4o-mini', stream, messages: [{ role: 'user', content: 'hi' }] }),
      ...(signal ? { signal } : {}),
    });

  it("a priced reply carries its cost, from the upstream's usage", async () => {
    upstream.enqueue({ type: 'chat', content: 'Sunny.' });
    const trace = clientTrace();
    await (await chatOnce(false, trace.traceparent)).text();
    const { request } = await spansOf(trace.traceId);
    // The fake's 11 prompt and 7 completion tokens.
    expect(request.attributes['interlingua.cost_usd']).toBeCloseTo((11 * 300 + 7 * 100) / 1e6, 12);
    expect(request.attributes['interlingua.estimated_cost_usd']).toBeUndefined();
  });

  it('a stream the client leaves carries what it was charged, under names that say it is an estimate', async () => {
    upstream.enqueue({ type: 'chat', content: 'abcd'.repeat(5), fragmentSize: 4, holdAfterChunks: 6 });
    const trace = clientTrace();
    const controller = new AbortController();
    const response = await chatOnce(true, trace.traceparent, controller.signal);
    const reader = response.body!.getReader();
    let text = '';
    while ((text.match(/abcd/g) ?? []).length < 5) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const { request } = await spansOf(trace.traceId);
    // Estimated: the prompt "hi" (1 token) and the 20 characters streamed (5 tokens).
    expect(request.attributes).toMatchObject({
      'interlingua.estimated_usage.input_tokens': 1,
      'interlingua.estimated_usage.output_tokens': 5,
      'interlingua.outcome': 'client-closed',
    });
    expect(request.attributes['interlingua.estimated_cost_usd']).toBeCloseTo((1 * 300 + 5 * 100) / 1e6, 12);
    // The upstream's own counts and cost stay absent: none arrived.
    expect(request.attributes['interlingua.cost_usd']).toBeUndefined();
    expect(request.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });
});

describe('configuration', () => {
  it('exports nothing and loads no tracer when no endpoint is configured', async () => {
    const quiet = await startGateway({
      providers: { native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
    });
    try {
      expect(quiet.app.tracing).toBeUndefined();
      upstream.enqueue({ type: 'chat', content: 'Sunny.' });
      const before = receiver.server.requests.length;
      const response = await fetch(`${quiet.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: clientTrace().traceparent },
        body: JSON.stringify({ model: 'native/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(response.status).toBe(200);
      expect(receiver.server.requests.length).toBe(before);
    } finally {
      await quiet.close();
    }
  });

  it('takes the endpoint and service name from the standard OTEL_* variables, and exports what is left on close', async () => {
    const fromEnvironment = await startGateway(
      { providers: { native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) } },
      { environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'from-environment' } },
    );
    upstream.enqueue({ type: 'chat', content: 'Sunny.' });
    const trace = clientTrace();
    const response = await fetch(`${fromEnvironment.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: trace.traceparent },
      body: JSON.stringify({ model: 'native/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
    // No flush: closing the app exports the buffered spans.
    await fromEnvironment.close();
    const spans = receiver.spans.filter((span) => span.traceId === trace.traceId);
    expect(spans.map((span) => span.kind).sort()).toEqual([serverKind, clientKind]);
    expect(spans[0]?.resource['service.name']).toBe('from-environment');
  });

  it('closes even when the collector is unreachable', async () => {
    const unreachable = await startGateway({
      providers: { native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
      telemetry: { otlpEndpoint: 'http://127.0.0.1:9' },
    });
    upstream.enqueue({ type: 'chat', content: 'Sunny.' });
    const response = await fetch(`${unreachable.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'native/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
    await expect(unreachable.close()).resolves.toBeUndefined();
  });
});
