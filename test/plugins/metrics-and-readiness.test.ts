/** GET /metrics (Prometheus text, scraped and parsed), GET /ready, and x-request-id on every reply. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { metricSamples } from '../helpers/metric-samples.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;
let unreachable: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startGateway({
    server: {
      apiKeys: [
        { key: 'sk-metrics-0123456789', name: 'team-m' },
        { key: 'sk-scraper-0123456789', name: 'prometheus', admin: true },
        'sk-full-access-0123456789',
      ],
    },
    providers: {
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted' }),
      native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
    },
  });
  unreachable = await startGateway({ providers: { gone: testProvider('openai-compatible', 'http://127.0.0.1:9/v1') } });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), unreachable?.close()]);
  await upstream?.close();
});

const samples = metricSamples;

/** Prometheus scrapes with an admin key as a bearer token (`authorization: { credentials: … }`). */
const auth = { authorization: 'Bearer sk-scraper-0123456789' };

describe('GET /metrics', () => {
  it('counts requests, tokens and tool calls by lane and family, with the key’s name', async () => {
    upstream.enqueue(
      { type: 'chat', content: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>' },
      { type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
    );
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }];
    const client = gateway.client('sk-metrics-0123456789');
    await client.chat.completions.create({ model: 'local/qwen3-8b', messages: [{ role: 'user', content: 'x' }], tools });
    await client.chat.completions
      .stream({ model: 'native/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], tools })
      .finalChatCompletion();
    const response = await fetch(`${gateway.baseUrl}/metrics`, { headers: auth });
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const values = samples(text);
    expect(
      values.get('interlingua_requests_total{route="/v1/chat/completions",provider="local",model="qwen3-8b",status="200",key="team-m"}'),
    ).toBe(1);
    expect(
      values.get(
        'interlingua_requests_total{route="/v1/chat/completions",provider="native",model="gpt-4o-mini",status="200",key="team-m"}',
      ),
    ).toBe(1);
    expect(values.get('interlingua_tool_calls_total{family="hermes",lane="prompted",outcome="parsed"}')).toBe(1);
    expect(values.get('interlingua_tool_calls_total{family="native",lane="native",outcome="parsed"}')).toBe(1);
    expect(values.get('interlingua_tokens_total{provider="local",model="qwen3-8b",direction="input",key="team-m"}')).toBe(11);
    expect(values.get('interlingua_time_to_first_token_seconds_count{provider="native",model="gpt-4o-mini",lane="native"}')).toBe(1);
    expect(values.get('interlingua_live_streams')).toBe(0);
  });

  it('counts upstream errors by provider, status and type: refused calls and errors mid-stream', async () => {
    upstream.enqueue(
      { type: 'http-error', status: 500, message: 'upstream fell over' },
      { type: 'chat', content: 'It is sunny and warm in Paris today.', streamError: { afterChunks: 3, message: 'overloaded' } },
    );
    const client = gateway.client('sk-metrics-0123456789');
    await expect(
      client.chat.completions.create({ model: 'native/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 500 });
    const stream = await client.chat.completions.create({
      model: 'local/qwen3-8b',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    await expect(async () => {
      for await (const chunk of stream) void chunk;
    }).rejects.toThrow(/overloaded/);
    const values = samples(await (await fetch(`${gateway.baseUrl}/metrics`, { headers: auth })).text());
    expect(values.get('interlingua_upstream_errors_total{provider="native",status="500",type="upstream_error"}')).toBe(1);
    const midStream = [...values].filter(([name]) => name.startsWith('interlingua_upstream_errors_total{provider="local",'));
    expect(midStream.map(([, value]) => value)).toEqual([1]);
  });

  it('counts a call to a tool that was not offered as rejected, per family and lane', async () => {
    upstream.enqueue({ type: 'chat', content: '<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>' });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }];
    await gateway
      .client('sk-metrics-0123456789')
      .chat.completions.create({ model: 'local/qwen3-8b', messages: [{ role: 'user', content: 'x' }], tools });
    const values = samples(await (await fetch(`${gateway.baseUrl}/metrics`, { headers: auth })).text());
    expect(values.get('interlingua_tool_calls_total{family="hermes",lane="prompted",outcome="rejected"}')).toBe(1);
  });

  it('needs a key like every route', async () => {
    expect((await fetch(`${gateway.baseUrl}/metrics`)).status).toBe(401);
  });

  it("needs an admin key or a full-access one: a team's key may not read every key's names, tokens and spend", async () => {
    const refused = await fetch(`${gateway.baseUrl}/metrics`, { headers: { authorization: 'Bearer sk-metrics-0123456789' } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('admin_only');
    // A key given as a plain string has full access (the config reference): it scrapes, as it did before keys had policies.
    const fullAccess = await fetch(`${gateway.baseUrl}/metrics`, { headers: { authorization: 'Bearer sk-full-access-0123456789' } });
    expect(fullAccess.status).toBe(200);
    expect(await fullAccess.text()).toContain('interlingua_requests_total');
  });
});

describe('GET /ready', () => {
  it('is 200 when a provider answers, and needs no key', async () => {
    const response = await fetch(`${gateway.baseUrl}/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ready', providers: { local: true, native: true } });
  });

  it('is a 503 in the envelope when no provider answers', async () => {
    const response = await fetch(`${unreachable.baseUrl}/ready`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'not_ready', message: expect.stringContaining('gone') } });
  });
});

describe('x-request-id', () => {
  it('keeps a client’s sane id, mints one otherwise, on every reply', async () => {
    const given = await fetch(`${gateway.baseUrl}/health`, { headers: { 'x-request-id': 'trace-42' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    const odd = await fetch(`${gateway.baseUrl}/v1/models`, { headers: { ...auth, 'x-request-id': 'x'.repeat(500) } });
    expect(odd.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16,}$/);
    const refused = await fetch(`${gateway.baseUrl}/v1/models`);
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
