/** Budgets per key: refused before the upstream when spent, per API envelope; streams that cross finish; replicas share; /v1/usage. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BudgetLedger, budgetPeriod, createInProcessBudgetState } from '../../src/plugins/budgets.js';
import { Redis } from 'ioredis';
import { createInProcessState } from '../../src/state/in-process-state.js';
import { RedisSpendReservations } from '../../src/state/redis-spend-reservations.js';
import { RedisWindowCounter } from '../../src/state/redis-window-counter.js';
import type { SharedState } from '../../src/state/shared-state.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { ResponsesSocketClient } from '../helpers/responses-socket-client.js';
import { redisServerPath, warnWhenRedisIsMissing } from '../helpers/redis-server.js';
import { startGateway, testProvider, type StartedGateway, type TestConfigFile } from '../helpers/start-gateway.js';
import { useRedisServer } from '../helpers/use-redis-server.js';

warnWhenRedisIsMissing('the shared budget test');

/** With the fake's usage (11 prompt and 7 completion tokens), every reply costs (11 × 300 + 7 × 100) / 1e6 = $0.004. */
const costPerReply = 0.004;
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

/** `providerSettings`: more of the `local` provider's settings (its pool size). */
async function setUp(
  budgetUsd: number,
  extra: Partial<TestConfigFile> = {},
  providerSettings: Record<string, unknown> = {},
): Promise<{ gateway: StartedGateway; upstream: FakeOpenAiUpstream }> {
  const upstream = await startFakeOpenAiUpstream();
  upstream.respondWith(() => ({ type: 'chat', content: 'hello' }));
  opened.push(upstream);
  const gateway = await startGateway({
    server: {
      apiKeys: [
        { key: 'team-key', name: 'team', budget: { usd: budgetUsd, period: 'month' } },
        { key: 'other-key', name: 'other' },
        { key: 'ops-key', name: 'ops', admin: true },
      ],
    },
    providers: {
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { server: 'generic', toolCalling: 'native', ...providerSettings }),
    },
    prices: { 'local/*': { input: 300, output: 100 } },
    ...extra,
  });
  opened.push(gateway);
  return { gateway, upstream };
}

function chat(gateway: StartedGateway, key: string, stream = false, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'local/m', stream, messages: [{ role: 'user', content: 'hi' }] }),
    ...(signal ? { signal } : {}),
  });
}

/** A chat that allows 7 output tokens: reserved (1 prompt token × $300 + 7 × $100) / 1e6 = $0.001. */
function boundedChat(gateway: StartedGateway, key: string): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'local/m', max_tokens: 7, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

/** The statuses of `responses`, each body read, and the codes of those refused. */
async function outcomes(responses: Response[]): Promise<{ admitted: number; refusedCodes: string[] }> {
  let admitted = 0;
  const refusedCodes: string[] = [];
  for (const response of responses) {
    if (response.status === 200) admitted++;
    else refusedCodes.push(`${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`);
    if (!response.bodyUsed) await response.arrayBuffer();
  }
  return { admitted, refusedCodes };
}

/** Resolves once the upstream has `count` chat requests: those requests are in flight in the gateway. */
async function upstreamHas(upstream: FakeOpenAiUpstream, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (upstream.chatRequests().length < count) {
    if (Date.now() > deadline) throw new Error(`the upstream never had ${count} chat requests`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type BudgetFigures = { usd: number; spent_usd: number; reserved_usd: number; remaining_usd: number };

/** The key's own budget figures in GET /v1/usage. */
async function budgetFigures(gateway: StartedGateway, key: string): Promise<BudgetFigures> {
  const response = await fetch(`${gateway.baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { keys: { budget: BudgetFigures }[] }).keys[0]!.budget;
}

/**
 * With one bounded chat ($0.001 reserved) in flight on `busy`, what `other` (the same replica, or another on
 * the same Redis) shows the key: GET /v1/usage's figures, and the remaining header of a reply it serves then.
 */
async function figuresBesideOneInFlight(
  busy: { gateway: StartedGateway; upstream: FakeOpenAiUpstream },
  other: StartedGateway,
): Promise<{ inFlight: BudgetFigures; header: string | null; after: BudgetFigures }> {
  busy.upstream.respondWith(() => ({ type: 'chat', content: 'hello', headersDelayMs: 400 }));
  const slow = boundedChat(busy.gateway, 'team-key');
  await upstreamHas(busy.upstream, 1);
  const inFlight = await budgetFigures(other, 'team-key');
  const beside = await fetch(`${other.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
    // An unknown provider: refused by the pipeline after the budget's preHandler set its headers, reserving nothing.
    body: JSON.stringify({ model: 'nowhere/m', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await beside.arrayBuffer();
  await (await slow).arrayBuffer();
  // Recorded without the request waiting (Redis): give the increment a moment.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { inFlight, header: beside.headers.get('x-interlingua-budget-remaining-usd'), after: await budgetFigures(other, 'team-key') };
}

describe('budgets', () => {
  it('refuses a key over its budget before the upstream, with 429 budget_exceeded and the budget headers', async () => {
    const { gateway, upstream } = await setUp(0.01);
    for (let index = 0; index < 3; index++) {
      const response = await chat(gateway, 'team-key');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-interlingua-budget-usd')).toBe('0.01');
      expect(Number(response.headers.get('x-interlingua-cost-usd'))).toBeCloseTo(costPerReply, 9);
      await response.arrayBuffer();
    }
    const before = upstream.chatRequests().length;
    const refused = await chat(gateway, 'team-key');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; type: string; message: string } };
    expect(body.error).toMatchObject({ code: 'budget_exceeded', type: 'rate_limit_error' });
    expect(refused.headers.get('x-interlingua-budget-remaining-usd')).toBe('0.000000');
    expect(Date.parse(refused.headers.get('x-interlingua-budget-reset') as string)).toBeGreaterThan(Date.now());
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(upstream.chatRequests().length).toBe(before);
    // Other keys are not affected.
    expect((await chat(gateway, 'other-key')).status).toBe(200);
    // The Messages API refuses in its own envelope.
    const messages = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'team-key', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'local/m', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(messages.status).toBe(429);
    expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const responses = await fetch(`${gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
      body: JSON.stringify({ model: 'local/m', input: 'hi' }),
    });
    expect(responses.status).toBe(429);
    expect(((await responses.json()) as { error: { code: string } }).error.code).toBe('budget_exceeded');
  });

  // Without reservations all 20 were admitted against the same $0 spent, and spent $0.08 of a $0.01 budget.
  it('concurrent requests reserve what they may cost: together they stay within the budget', async () => {
    const { gateway, upstream } = await setUp(0.01);
    // A busy server: every request is in flight before any reply is charged.
    upstream.respondWith(() => ({ type: 'chat', content: 'hello', headersDelayMs: 300 }));
    const responses = await Promise.all(Array.from({ length: 20 }, () => boundedChat(gateway, 'team-key')));
    const { admitted, refusedCodes } = await outcomes(responses);
    // The first alone, then each while spent ($0) + reserved + its $0.001 stays within $0.01: ten in all.
    expect(admitted).toBe(10);
    expect(refusedCodes).toEqual(Array.from({ length: 10 }, () => '429 budget_exceeded'));
    expect(upstream.chatRequests()).toHaveLength(10);
  });

  it('gives a reservation back when its request ends, answered or failed', async () => {
    // Room for three reservations of $0.001 beside a fourth; six failed requests would have left six behind.
    const { gateway, upstream } = await setUp(0.0035);
    upstream.respondWith(() => ({ type: 'http-error', status: 500, message: 'engine died' }));
    for (let index = 0; index < 6; index++) expect((await boundedChat(gateway, 'team-key')).status).toBe(500);
    upstream.respondWith(() => ({ type: 'chat', content: 'hello', headersDelayMs: 200 }));
    const { admitted } = await outcomes(await Promise.all(Array.from({ length: 3 }, () => boundedChat(gateway, 'team-key'))));
    expect(admitted).toBe(3);
  });

  it('a stream that crosses the budget finishes; the next request is refused', async () => {
    const { gateway } = await setUp(0.005);
    const first = await chat(gateway, 'team-key', true);
    expect(first.headers.get('x-interlingua-budget-usd')).toBe('0.005');
    expect(await first.text()).toContain('[DONE]');
    const second = await chat(gateway, 'team-key', true);
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('[DONE]');
    expect((await chat(gateway, 'team-key', true)).status).toBe(429);
  });

  it('a WebSocket turn spends the budget and is refused past it, like an HTTP request', async () => {
    const { gateway, upstream } = await setUp(2 * costPerReply);
    const url = `${gateway.baseUrl.replace(/^http/, 'ws')}/v1/responses`;
    const client = await ResponsesSocketClient.connect(url, { authorization: 'Bearer team-key' });
    const turn = async () => {
      client.send({ type: 'response.create', model: 'local/m', input: 'hi', store: false });
      return (await client.nextTurn()).at(-1);
    };
    try {
      expect((await turn())?.type).toBe('response.completed');
      // The turn's cost counts: one HTTP request spends the rest.
      expect((await chat(gateway, 'team-key')).status).toBe(200);
      const before = upstream.chatRequests().length;
      expect(await turn()).toMatchObject({ type: 'error', status: 429, error: { code: 'budget_exceeded' } });
      expect(upstream.chatRequests().length).toBe(before);
    } finally {
      await client.close();
    }
  });

  it("WebSocket turns on a key's several connections reserve their cost like HTTP requests", async () => {
    const { gateway, upstream } = await setUp(0.01);
    upstream.respondWith(() => ({ type: 'chat', content: 'hello', headersDelayMs: 300 }));
    const url = `${gateway.baseUrl.replace(/^http/, 'ws')}/v1/responses`;
    const clients = await Promise.all(
      Array.from({ length: 12 }, () => ResponsesSocketClient.connect(url, { authorization: 'Bearer team-key' })),
    );
    try {
      // max_output_tokens 7: $0.001 reserved each, as boundedChat's.
      for (const client of clients)
        client.send({ type: 'response.create', model: 'local/m', input: 'hi', max_output_tokens: 7, store: false });
      const lastEvents = await Promise.all(clients.map(async (client) => (await client.nextTurn()).at(-1)));
      expect(lastEvents.filter((event) => event?.type === 'response.completed')).toHaveLength(10);
      expect(lastEvents.filter((event) => event?.type === 'error')).toEqual(
        Array.from({ length: 2 }, () =>
          expect.objectContaining({ status: 429, error: expect.objectContaining({ code: 'budget_exceeded' }) }),
        ),
      );
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  // Both showed the budget less the spend alone: a client saw $0.01 left while requests in flight held some of it.
  it('what is left, in the header and in GET /v1/usage, leaves out what requests in flight reserved', async () => {
    const busy = await setUp(0.01);
    const { inFlight, header, after } = await figuresBesideOneInFlight(busy, busy.gateway);
    expect(inFlight).toMatchObject({ usd: 0.01, spent_usd: 0 });
    expect(inFlight.reserved_usd).toBeCloseTo(0.001, 12);
    expect(inFlight.remaining_usd).toBeCloseTo(0.009, 12);
    expect(header).toBe('0.009000');
    // Once it ended, its real cost counts instead of its reservation.
    expect(after.reserved_usd).toBe(0);
    expect(after.spent_usd).toBeCloseTo(costPerReply, 12);
    expect(after.remaining_usd).toBeCloseTo(0.01 - costPerReply, 12);
  });

  it("a request reserves at its dearest fallback's price, which it is charged should the fallback answer", async () => {
    // local/m fails over to local/dear at ten times the price: reserved at local/m's alone ($0.001), a
    // request the fallback answers would spend ten times what it held.
    const busy = await setUp(1, {
      fallbacks: { 'local/m': ['local/dear'] },
      prices: { 'local/dear': { input: 3000, output: 1000 }, 'local/*': { input: 300, output: 100 } },
    });
    const { inFlight } = await figuresBesideOneInFlight(busy, busy.gateway);
    // (1 prompt token × $3,000 + 7 × $1,000) / 1e6.
    expect(inFlight.reserved_usd).toBeCloseTo(0.01, 12);
  });

  it("a whole reply's remaining header is written once its cost is known; a stream's head says what was left at admission", async () => {
    const { gateway } = await setUp(0.02);
    const post = (path: string, body: object): Promise<Response> =>
      fetch(`${gateway.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer team-key', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      });
    const remaining = async (response: Response): Promise<number> => {
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      return Number(response.headers.get('x-interlingua-budget-remaining-usd'));
    };
    // Each whole reply says what is left after it ($0.004 each): what a client reads before its next request.
    expect(await remaining(await chat(gateway, 'team-key'))).toBeCloseTo(0.02 - costPerReply, 6);
    expect(await remaining(await post('/v1/responses', { model: 'local/m', input: 'hi' }))).toBeCloseTo(0.02 - 2 * costPerReply, 6);
    expect(
      await remaining(await post('/v1/messages', { model: 'local/m', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })),
    ).toBeCloseTo(0.02 - 3 * costPerReply, 6);
    // A stream's head goes out before its cost is known: what was left when it was admitted.
    expect(await remaining(await chat(gateway, 'team-key', true))).toBeCloseTo(0.02 - 3 * costPerReply, 6);
    expect(await remaining(await chat(gateway, 'team-key'))).toBeCloseTo(0.02 - 5 * costPerReply, 6);
  });

  it('GET /v1/usage: a key sees its own spend and tokens, an admin key sees every key', async () => {
    const { gateway } = await setUp(1);
    await (await chat(gateway, 'team-key')).arrayBuffer();
    await (await chat(gateway, 'team-key')).arrayBuffer();
    await (await chat(gateway, 'other-key')).arrayBuffer();
    const own = (await (await fetch(`${gateway.baseUrl}/v1/usage`, { headers: { authorization: 'Bearer team-key' } })).json()) as {
      keys: {
        key: string;
        cost_usd: number;
        budget: { spent_usd: number; remaining_usd: number } | null;
        data: { input_tokens: number; requests: number }[];
      }[];
    };
    expect(own.keys.map((key) => key.key)).toEqual(['team']);
    expect(own.keys[0]!.cost_usd).toBeCloseTo(2 * costPerReply, 9);
    expect(own.keys[0]!.budget?.spent_usd).toBeCloseTo(2 * costPerReply, 9);
    expect(own.keys[0]!.data[0]).toMatchObject({ requests: 2, input_tokens: 22 });
    const all = (await (
      await fetch(`${gateway.baseUrl}/v1/usage?period=day`, { headers: { authorization: 'Bearer ops-key' } })
    ).json()) as {
      keys: { key: string }[];
    };
    expect(all.keys.map((key) => key.key)).toEqual(['ops', 'other', 'team']);
    const bad = await fetch(`${gateway.baseUrl}/v1/usage?period=year`, { headers: { authorization: 'Bearer ops-key' } });
    expect(bad.status).toBe(400);
  });
});

describe('GET /v1/usage adds up', () => {
  it("each key's cost is the sum of its rows and of the costs its replies carried, on every API, and the keys sum to the metric", async () => {
    const { gateway } = await setUp(1);
    const post = async (key: string, path: string, body: object): Promise<number> => {
      const response = await fetch(`${gateway.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      const header = response.headers.get('x-interlingua-cost-usd');
      if (header !== null) return Number(header);
      // A stream: the cost is in its last usage object.
      const costs = [...text.matchAll(/"cost_usd":([0-9.e-]+)/g)].map((match) => Number(match[1]));
      expect(costs.length).toBeGreaterThan(0);
      return costs.at(-1)!;
    };
    const messages = [{ role: 'user', content: 'hi' }];
    const carried = new Map<string, number>();
    for (const key of ['team-key', 'other-key']) {
      let sum = 0;
      sum += await post(key, '/v1/chat/completions', { model: 'local/m', messages });
      sum += await post(key, '/v1/chat/completions', { model: 'local/m', messages, stream: true, stream_options: { include_usage: true } });
      sum += await post(key, '/v1/responses', { model: 'local/m', input: 'hi', stream: true });
      sum += await post(key, '/v1/messages', { model: 'local/other', max_tokens: 10, messages });
      sum += await post(key, '/v1/messages', { model: 'local/other', max_tokens: 10, messages, stream: true });
      sum += await post(key, '/v1/embeddings', { model: 'local/embedder', input: ['one', 'two'] });
      carried.set(key === 'team-key' ? 'team' : 'other', sum);
    }
    type KeyUsage = { key: string; cost_usd: number; requests: number; data: { cost_usd: number; requests: number }[] };
    const usage = (await (
      await fetch(`${gateway.baseUrl}/v1/usage?period=day`, { headers: { authorization: 'Bearer ops-key' } })
    ).json()) as {
      keys: KeyUsage[];
    };
    let total = 0;
    for (const [name, sum] of carried) {
      const entry = usage.keys.find((key) => key.key === name)!;
      expect(entry.requests).toBe(6);
      expect(entry.cost_usd).toBeCloseTo(sum, 12);
      expect(entry.data.reduce((rows, row) => rows + row.cost_usd, 0)).toBeCloseTo(sum, 12);
      expect(entry.data.reduce((rows, row) => rows + row.requests, 0)).toBe(6);
      total += entry.cost_usd;
    }
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`, { headers: { authorization: 'Bearer ops-key' } })).text();
    const metricTotal = metrics
      .split('\n')
      .filter((line) => line.startsWith('interlingua_cost_usd_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
    expect(metricTotal).toBeCloseTo(total, 9);
  });
});

describe('replies cut short', () => {
  type UsageBody = {
    keys: {
      budget: { spent_usd: number } | null;
      data: { requests: number; input_tokens: number; output_tokens: number; cost_usd: number; estimated_cost_usd: number }[];
    }[];
  };
  async function teamUsage(gateway: StartedGateway): Promise<UsageBody['keys'][number]> {
    const response = await fetch(`${gateway.baseUrl}/v1/usage`, { headers: { authorization: 'Bearer team-key' } });
    return ((await response.json()) as UsageBody).keys[0]!;
  }
  /**
   * No usage reached the gateway: the prompt ("hi", ⌈2 / 4⌉ = 1 token) and the 20 characters streamed
   * (5 tokens) are estimated, at $300 and $100 per million.
   */
  const estimatedCost = (1 * 300 + 5 * 100) / 1_000_000;
  /** The key's one usage row when that estimate is all it was charged. */
  const oneEstimatedRow = [
    expect.objectContaining({ requests: 1, input_tokens: 1, output_tokens: 5, cost_usd: estimatedCost, estimated_cost_usd: estimatedCost }),
  ];

  it('a stream the client leaves counts what was streamed, marked estimated', async () => {
    const { gateway, upstream } = await setUp(1);
    upstream.respondWith(() => ({ type: 'chat', content: 'abcd'.repeat(5), fragmentSize: 4, holdAfterChunks: 6 }));
    const controller = new AbortController();
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
      body: JSON.stringify({ model: 'local/m', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    while ((text.match(/abcd/g) ?? []).length < 5) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await upstream.waitForAbort(upstream.chatRequests().at(-1)!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const team = await teamUsage(gateway);
    expect(team.budget?.spent_usd).toBeCloseTo(estimatedCost, 12);
    expect(team.data).toEqual(oneEstimatedRow);
  });

  it('a stream whose only target sends an error event before any output is not charged, as an error status is not', async () => {
    const { gateway, upstream } = await setUp(1);
    // vLLM reports a failure inside the stream it opened: `data: {"error": …}` (vllm/entrypoints/openai/serving_chat.py).
    upstream.respondWith(() => ({ type: 'chat', content: 'never sent', streamError: { afterChunks: 0, message: 'engine died' } }));
    const body = await (await chat(gateway, 'team-key', true)).text();
    expect(body).toContain('engine died');
    const team = await teamUsage(gateway);
    expect(team.budget?.spent_usd).toBe(0);
    expect(team.data.every((row) => row.estimated_cost_usd === 0)).toBe(true);
  });

  it('a stream that breaks off upstream counts what was streamed', async () => {
    const { gateway, upstream } = await setUp(1);
    upstream.respondWith(() => ({ type: 'chat', content: 'abcd'.repeat(5), fragmentSize: 4, cutAfterChunks: 6 }));
    const body = await (await chat(gateway, 'team-key', true)).text();
    expect(body).toContain('"error"');
    const team = await teamUsage(gateway);
    expect(team.budget?.spent_usd).toBeCloseTo(estimatedCost, 12);
    expect(team.data[0]).toMatchObject({ requests: 1, output_tokens: 5, estimated_cost_usd: estimatedCost });
    // The metrics' totals count the estimate too, as budgets and /v1/usage do.
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`, { headers: { authorization: 'Bearer ops-key' } })).text();
    const costLine = metrics.split('\n').find((line) => line.startsWith('interlingua_cost_usd_total{') && line.includes('key="team"'));
    expect(Number(costLine?.split(' ').at(-1))).toBeCloseTo(estimatedCost, 12);
    expect(metrics).toMatch(/interlingua_tokens_total\{[^}]*direction="output",key="team"\} 5\b/);
  });

  // A streaming server sends its headers at once (vLLM's StreamingResponse), but one queueing the request or a
  // proxy buffering it may not: either way the upstream had the prompt, as it has a whole reply's.
  it.each([
    ['a non-streaming request', false],
    ['a stream, before the response headers,', true],
  ])('%s the client leaves while the upstream generates counts its prompt, marked estimated', async (_, stream) => {
    const { gateway, upstream } = await setUp(1);
    upstream.respondWith(() => ({ type: 'chat', content: 'hello', headersDelayMs: 5_000 }));
    const controller = new AbortController();
    const response = chat(gateway, 'team-key', stream, controller.signal).catch((error: unknown) => error);
    const sent = await upstream.nextRequest();
    controller.abort();
    expect(await response).toBeInstanceOf(Error);
    await upstream.waitForAbort(sent);
    // Nothing of the reply was read: the prompt ("hi", 1 token) is what the gateway can count.
    const promptCost = (1 * 300) / 1_000_000;
    await vi.waitFor(async () => expect((await teamUsage(gateway)).budget?.spent_usd).toBeCloseTo(promptCost, 12));
    const team = await teamUsage(gateway);
    expect(team.data).toEqual([
      expect.objectContaining({ requests: 1, input_tokens: 1, output_tokens: 0, cost_usd: promptCost, estimated_cost_usd: promptCost }),
    ]);
  });

  // The gateway may not have sent the request yet: connecting, or (here) queued behind the provider's one
  // connection (`maxConnections: 1`) held by another key's slow reply. undici writes it only once a connection
  // is free; cancelled before that, it never reaches the upstream, which can have billed nothing.
  it.each([
    ['a non-streaming request', false],
    ['a stream', true],
  ])('%s the client leaves before it was sent upstream is charged nothing', async (_, stream) => {
    const { gateway, upstream } = await setUp(1, {}, { maxConnections: 1 });
    upstream.enqueue({ type: 'chat', content: 'slow', headersDelayMs: 400 });
    const holding = chat(gateway, 'other-key');
    await upstream.nextRequest();
    const controller = new AbortController();
    const queued = chat(gateway, 'team-key', stream, controller.signal).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    expect(await queued).toBeInstanceOf(Error);
    expect((await holding).status).toBe(200);
    // The connection is free again: a queued stream is handed to it now, and aborted unwritten.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(upstream.chatRequests()).toHaveLength(1);
    const team = await teamUsage(gateway);
    expect(team.budget?.spent_usd).toBe(0);
    expect(team.data).toEqual([]);
  });

  // An OpenAI-compatible server that ignores stream_options.include_usage (or a proxy that drops `usage`) still
  // generated, and billed, the reply: counted as one cut short would be, rather than free.
  it.each([
    ['a stream', true],
    ['a whole reply', false],
  ])('%s the upstream finishes without any usage counts its estimate, once, marked estimated', async (_, stream) => {
    const { gateway, upstream } = await setUp(1);
    upstream.respondWith(() => ({ type: 'chat', content: 'abcd'.repeat(5), usage: null }));
    const response = await chat(gateway, 'team-key', stream);
    expect(response.status).toBe(200);
    await response.text();
    await vi.waitFor(async () => expect((await teamUsage(gateway)).budget?.spent_usd).toBeCloseTo(estimatedCost, 12));
    expect((await teamUsage(gateway)).data).toEqual(oneEstimatedRow);
    // A whole reply's head is written after its end: its cost header is the estimate, said to be one.
    const costHeaders = [response.headers.get('x-interlingua-cost-usd'), response.headers.get('x-interlingua-cost-estimated')];
    expect(costHeaders).toEqual(stream ? [null, null] : [String(estimatedCost), 'true']);
  });

  it('a finished stream counts the upstream usage, with nothing estimated', async () => {
    const { gateway } = await setUp(1);
    await (await chat(gateway, 'team-key', true)).text();
    const team = await teamUsage(gateway);
    expect(team.budget?.spent_usd).toBeCloseTo(costPerReply, 12);
    expect(team.data[0]).toMatchObject({ requests: 1, input_tokens: 11, output_tokens: 7, estimated_cost_usd: 0 });
  });
});

describe('embeddings spend', () => {
  function embed(gateway: StartedGateway, key: string): Promise<Response> {
    return fetch(`${gateway.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'local/embedder', input: ['one', 'two'] }),
    });
  }
  /** The fake counts 2 tokens per input: 4 input tokens at $300 per million. */
  const costPerEmbedding = 0.0012;

  it('prices the input tokens: the cost in the reply, in /v1/usage and against the budget', async () => {
    const { gateway, upstream } = await setUp(0.002);
    const first = await embed(gateway, 'team-key');
    expect(first.status).toBe(200);
    expect(Number(first.headers.get('x-interlingua-cost-usd'))).toBeCloseTo(costPerEmbedding, 12);
    // What is left after it, as for a whole chat reply.
    expect(first.headers.get('x-interlingua-budget-remaining-usd')).toBe('0.000800');
    expect(((await first.json()) as { usage: unknown }).usage).toEqual({ prompt_tokens: 4, total_tokens: 4, cost_usd: costPerEmbedding });
    await (await embed(gateway, 'team-key')).arrayBuffer();
    const usage = (await (await fetch(`${gateway.baseUrl}/v1/usage`, { headers: { authorization: 'Bearer team-key' } })).json()) as {
      keys: { cost_usd: number; budget: { spent_usd: number }; data: unknown[] }[];
    };
    expect(usage.keys[0]!.cost_usd).toBeCloseTo(2 * costPerEmbedding, 12);
    expect(usage.keys[0]!.budget.spent_usd).toBeCloseTo(2 * costPerEmbedding, 12);
    expect(usage.keys[0]!.data).toEqual([
      expect.objectContaining({ model: 'local/embedder', requests: 2, input_tokens: 8, output_tokens: 0 }),
    ]);
    const before = upstream.requests.length;
    const refused = await embed(gateway, 'team-key');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('budget_exceeded');
    expect(upstream.requests.length).toBe(before);
  });

  // Embeddings reserved nothing: ten concurrent requests all ran against the same $0 spent, $0.012 on a $0.003 budget.
  it('concurrent embeddings reserve their estimated input: together they stay within the budget', async () => {
    const { gateway, upstream } = await setUp(0.003);
    upstream.enqueueEmbeddings(...Array.from({ length: 10 }, () => ({ type: 'embeddings' as const, headersDelayMs: 300 })));
    const responses = await Promise.all(Array.from({ length: 10 }, () => embed(gateway, 'team-key')));
    const { admitted, refusedCodes } = await outcomes(responses);
    // Reserved: ⌈3 / 4⌉ = 1 token per text, 2 tokens at $300 per million = $0.0006: the first alone, then
    // each while reserved + its $0.0006 stays within $0.003: five in all.
    expect(admitted).toBe(5);
    expect(refusedCodes).toEqual(Array.from({ length: 5 }, () => '429 budget_exceeded'));
    expect(upstream.embeddingRequests()).toHaveLength(5);
    expect((await budgetFigures(gateway, 'team-key')).reserved_usd).toBe(0);
  });
});

describe('embeddings without usage', () => {
  it('are charged an estimate of their input, marked estimated', async () => {
    const { gateway, upstream } = await setUp(1);
    upstream.embeddingUsage = false;
    const response = await fetch(`${gateway.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
      body: JSON.stringify({ model: 'local/embedder', input: ['one', 'two', 'a longer text'] }),
    });
    expect(response.status).toBe(200);
    // ⌈3 / 4⌉ + ⌈3 / 4⌉ + ⌈13 / 4⌉ = 6 tokens, at $300 per million.
    const estimate = (6 * 300) / 1_000_000;
    expect(Number(response.headers.get('x-interlingua-cost-usd'))).toBeCloseTo(estimate, 12);
    expect(response.headers.get('x-interlingua-cost-estimated')).toBe('true');
    // The reply keeps what the upstream said: it counted nothing.
    expect(((await response.json()) as { usage?: unknown }).usage).toBeUndefined();
    const usage = (await (await fetch(`${gateway.baseUrl}/v1/usage`, { headers: { authorization: 'Bearer team-key' } })).json()) as {
      keys: { budget: { spent_usd: number }; data: unknown[] }[];
    };
    expect(usage.keys[0]!.budget.spent_usd).toBeCloseTo(estimate, 12);
    expect(usage.keys[0]!.data).toEqual([
      expect.objectContaining({ model: 'local/embedder', input_tokens: 6, cost_usd: estimate, estimated_cost_usd: estimate }),
    ]);
  });

  it('abandoned by the client while the upstream embeds are charged the same estimate', async () => {
    const { gateway, upstream } = await setUp(1);
    upstream.enqueueEmbeddings({ type: 'embeddings', headersDelayMs: 5_000 });
    const controller = new AbortController();
    const response = fetch(`${gateway.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
      body: JSON.stringify({ model: 'local/embedder', input: ['one', 'two', 'a longer text'] }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    const sent = await upstream.nextRequest();
    controller.abort();
    expect(await response).toBeInstanceOf(Error);
    await upstream.waitForAbort(sent);
    const estimate = (6 * 300) / 1_000_000;
    const teamUsage = async () =>
      (
        (await (await fetch(`${gateway.baseUrl}/v1/usage`, { headers: { authorization: 'Bearer team-key' } })).json()) as {
          keys: { budget: { spent_usd: number }; data: unknown[] }[];
        }
      ).keys[0]!;
    await vi.waitFor(async () => expect((await teamUsage()).budget.spent_usd).toBeCloseTo(estimate, 12));
    expect((await teamUsage()).data).toEqual([
      expect.objectContaining({ model: 'local/embedder', requests: 1, input_tokens: 6, estimated_cost_usd: estimate }),
    ]);
  });

  it('given as token ids, are counted exactly: one token per id', async () => {
    const { gateway, upstream } = await setUp(1);
    upstream.embeddingUsage = false;
    const response = await fetch(`${gateway.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
      body: JSON.stringify({
        model: 'local/embedder',
        input: [
          [1, 2, 3],
          [4, 5],
        ],
      }),
    });
    expect(Number(response.headers.get('x-interlingua-cost-usd'))).toBeCloseTo((5 * 300) / 1_000_000, 12);
  });
});

describe('budget periods', () => {
  it('day, week (from Monday) and month boundaries are UTC', () => {
    const now = new Date('2026-12-05T23:59:59Z'); // a Saturday
    expect(budgetPeriod('day', now)).toMatchObject({ start: new Date('2026-12-05T00:00:00Z'), end: new Date('2026-12-06T00:00:00Z') });
    expect(budgetPeriod('week', now)).toMatchObject({ start: new Date('2026-11-30T00:00:00Z'), end: new Date('2026-12-07T00:00:00Z') });
    expect(budgetPeriod('month', now)).toMatchObject({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    expect(budgetPeriod('week', new Date('2026-11-30T00:00:00Z')).start).toEqual(new Date('2026-11-30T00:00:00Z'));
  });

  it('spend counts from zero when the period turns', async () => {
    let now = new Date('2026-12-31T23:00:00Z');
    const ledger = new BudgetLedger(createInProcessState(), () => now.getTime());
    const holder = { name: 'team', budget: { usd: 1, period: 'month' as const } };
    const log = { warn: () => undefined };
    ledger.record(holder, 0.75, log);
    expect((await ledger.status(holder)).remainingUsd).toBeCloseTo(0.25, 9);
    now = new Date('2027-01-01T00:00:01Z');
    const turned = await ledger.status(holder);
    expect(turned.spentUsd).toBe(0);
    expect(turned.resetsAt).toEqual(new Date('2027-02-01T00:00:00Z'));
  });

  it("a reload that changes a key's period finds the spend already made in the new period", async () => {
    // The in-process totals outlive a reload's app (src/live-gateway.ts hands them to the new ledger).
    const inProcessBudgets = createInProcessBudgetState();
    let now = new Date('2026-12-02T10:00:00Z');
    const log = { warn: () => undefined };
    const daily = { name: 'team', budget: { usd: 1, period: 'day' as const } };
    const before = new BudgetLedger(createInProcessState(), () => now.getTime(), inProcessBudgets);
    before.record(daily, 0.25, log);
    now = new Date('2026-12-03T10:00:00Z');
    before.record(daily, 0.5, log);
    const after = new BudgetLedger(createInProcessState(), () => now.getTime(), inProcessBudgets);
    expect((await after.status(daily)).spentUsd).toBeCloseTo(0.5, 9);
    // Made monthly (and weekly): both days of December count, and the week from Monday 2026-11-30.
    expect((await after.status({ name: 'team', budget: { usd: 1, period: 'month' } })).spentUsd).toBeCloseTo(0.75, 9);
    expect((await after.status({ name: 'team', budget: { usd: 1, period: 'week' } })).spentUsd).toBeCloseTo(0.75, 9);
  });

  // Each app's ledger kept its own reservations: the reloaded app admitted a burst beside the old app's requests in flight.
  it('a reload keeps the reservations of the requests in flight: the new app admits beside them, and they release into it', async () => {
    const inProcessBudgets = createInProcessBudgetState();
    const holder = { name: 'team', budget: { usd: 0.0025, period: 'month' as const } };
    const before = new BudgetLedger(createInProcessState(), Date.now, inProcessBudgets);
    const first = await before.reserve(holder, 0.001);
    const second = await before.reserve(holder, 0.001);
    const after = new BudgetLedger(createInProcessState(), Date.now, inProcessBudgets);
    expect(await after.status(holder)).toMatchObject({ reservedUsd: 0.002 });
    expect((await after.status(holder)).remainingUsd).toBeCloseTo(0.0005, 12);
    // 0.002 reserved by the old app's requests: a third passes $0.0025.
    expect(after.reserve(holder, 0.001)).toBe('refused');
    for (const reservation of [first, second]) {
      expect(reservation).toMatchObject({ release: expect.any(Function) });
      if (reservation && reservation !== 'refused') await reservation.release();
    }
    expect((await after.status(holder)).reservedUsd).toBe(0);
    expect(after.reserve(holder, 0.001)).toMatchObject({ release: expect.any(Function) });
  });
});

describe('spend below a millionth of a dollar per request', () => {
  const log = { warn: () => undefined };
  const holder = { name: 'team', budget: { usd: 0.0003, period: 'day' as const } };
  // 8 tokens at $0.05 per million: $0.0000004, under the stores' whole millionth.
  const cheapRequest = (8 * 0.05) / 1_000_000;

  it('adds up in process, so that many cheap requests reach the budget', async () => {
    const ledger = new BudgetLedger(createInProcessState());
    for (let index = 0; index < 1_000; index++) ledger.record(holder, cheapRequest, log);
    const status = await ledger.status(holder);
    expect(status.spentUsd).toBeCloseTo(0.0004, 12);
    expect(status.remainingUsd).toBe(0);
  });

  it('adds whole points to a store that counts integers (Redis INCRBY), carrying the rest', async () => {
    const added: number[] = [];
    let total = 0;
    const integerCounter = {
      add: async (_key: string, points: number) => {
        if (!Number.isInteger(points)) throw new Error(`ERR value is not an integer: ${points}`);
        added.push(points);
        total += points;
        return { consumedPoints: total, msBeforeNext: 0 };
      },
      read: async () => ({ consumedPoints: total, msBeforeNext: 0 }),
    };
    // Spend is counted by day, week and month: the day's counter is the one this budget reads.
    const otherPeriods = {
      add: async () => ({ consumedPoints: 0, msBeforeNext: 0 }),
      read: async () => ({ consumedPoints: 0, msBeforeNext: 0 }),
    };
    const state = {
      ...createInProcessState(),
      kind: 'redis' as const,
      windowCounter: (options: { name: string }) => (options.name === 'budget:day' ? integerCounter : otherPeriods),
      spendReservations: { reservedPoints: async () => 0 },
    } as unknown as SharedState;
    const ledger = new BudgetLedger(state);
    for (let index = 0; index < 1_000; index++) ledger.record(holder, cheapRequest, log);
    await Promise.resolve();
    expect(added.every((points) => points === 1)).toBe(true);
    // 400 millionths, give or take the carry this replica still holds (under one).
    expect(total).toBeGreaterThanOrEqual(399);
    expect((await ledger.status(holder)).spentUsd).toBeCloseTo(0.0004, 12);
  });
});

describe.skipIf(!redisServerPath)('budgets shared through Redis', () => {
  const redis = useRedisServer();

  it('two replicas on one Redis enforce one budget together', async () => {
    const state = { redis: redis.server.url, keyPrefix: `budget-test-${Date.now()}:` };
    const first = await setUp(0.008, { state });
    const second = await setUp(0.008, { state });
    await (await chat(first.gateway, 'team-key')).arrayBuffer();
    await (await chat(second.gateway, 'team-key')).arrayBuffer();
    // $0.008 spent across the two: both refuse now.
    expect((await chat(first.gateway, 'team-key')).status).toBe(429);
    expect((await chat(second.gateway, 'team-key')).status).toBe(429);
  });
  it('two replicas reserve in one Redis: concurrent requests to both stay within the budget together', async () => {
    const state = { redis: redis.server.url, keyPrefix: `reserve-test-${Date.now()}:` };
    const first = await setUp(0.01, { state });
    const second = await setUp(0.01, { state });
    for (const { upstream } of [first, second]) upstream.respondWith(() => ({ type: 'chat', content: 'hello', headersDelayMs: 300 }));
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => boundedChat((index % 2 ? first : second).gateway, 'team-key')),
    );
    const { admitted, refusedCodes } = await outcomes(responses);
    expect(admitted).toBe(10);
    expect(refusedCodes).toEqual(Array.from({ length: 10 }, () => '429 budget_exceeded'));
  });

  it('a reservation its replica never gave back (the replica died) expires with its lease', async () => {
    const prefix = `lease-test-${Date.now()}:`;
    const dying = new Redis(redis.server.url);
    const client = new Redis(redis.server.url);
    opened.push({ close: async () => void client.disconnect() });
    const request = { counter: 'budget:month', countKey: 'team:2026-12', holder: 'team', budgetPoints: 2_500, estimatePoints: 1_000 };
    const held = [
      await new RedisSpendReservations(dying, prefix, 200).reserve(request),
      await new RedisSpendReservations(dying, prefix, 200).reserve(request),
    ];
    expect(held.every((reservation) => reservation !== undefined)).toBe(true);
    // The replica is gone: its connection closed, nothing renews or releases its leases.
    dying.disconnect();
    const reservations = new RedisSpendReservations(client, prefix, 200);
    // 2,000 reserved: a third would pass 2,500 while the two are held.
    expect(await reservations.reserve(request)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const reservation of held) await reservation?.release();
    const after = await reservations.reserve(request);
    expect(after).toBeDefined();
    await after?.release();
    expect(await reservations.reserve(request)).toBeDefined();
  });

  // The lease ran out mid-request: a stream longer than 15 minutes was unreserved from then on.
  it('a request in flight renews its lease: held past the lease, it still counts until released', async () => {
    const client = new Redis(redis.server.url);
    opened.push({ close: async () => void client.disconnect() });
    const reservations = new RedisSpendReservations(client, `renew-test-${Date.now()}:`, 200);
    const request = { counter: 'budget:month', countKey: 'team:2026-12', holder: 'team', budgetPoints: 2_500, estimatePoints: 1_000 };
    const held = [await reservations.reserve(request), await reservations.reserve(request)];
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await reservations.reservedPoints('team')).toBe(2_000);
    expect(await reservations.reserve(request)).toBeUndefined();
    for (const reservation of held) await reservation?.release();
    expect(await reservations.reservedPoints('team')).toBe(0);
    const after = await reservations.reserve(request);
    expect(after).toBeDefined();
    await after?.release();
  });

  // String(1e21) is '1e+21' and String(Infinity) has no digits: the script read 21 points, or failed on every
  // reservation of the key while the request ran. max_tokens 1e17 at $20 per million, or 1e400 (Infinity), did it.
  it('an estimate too large to write in digits still holds the budget while its request runs', async () => {
    const client = new Redis(redis.server.url);
    opened.push({ close: async () => void client.disconnect() });
    const reservations = new RedisSpendReservations(client, `huge-estimate-test-${Date.now()}:`, 60_000);
    const request = { counter: 'budget:month', countKey: 'team:2026-12', holder: 'team', budgetPoints: 2_500, estimatePoints: 1_000 };
    for (const estimatePoints of [2e21, Number.POSITIVE_INFINITY]) {
      const held = await reservations.reserve({ ...request, estimatePoints });
      expect(held).toBeDefined();
      expect(await reservations.reserve(request)).toBeUndefined();
      expect(await reservations.reservedPoints('team')).toBeGreaterThan(request.budgetPoints);
      await held?.release();
      expect(await reservations.reservedPoints('team')).toBe(0);
    }
  });

  it('what is left leaves out what requests in flight on another replica reserved', async () => {
    const state = { redis: redis.server.url, keyPrefix: `remaining-test-${Date.now()}:` };
    const first = await setUp(0.01, { state });
    const second = await setUp(0.01, { state });
    const { inFlight, header, after } = await figuresBesideOneInFlight(first, second.gateway);
    expect(inFlight.reserved_usd).toBeCloseTo(0.001, 12);
    expect(inFlight.remaining_usd).toBeCloseTo(0.009, 12);
    expect(header).toBe('0.009000');
    expect(after.reserved_usd).toBe(0);
    expect(after.spent_usd).toBeCloseTo(costPerReply, 12);
  });

  it("a reservation reads the spend where the budget's counter keeps it", async () => {
    const client = new Redis(redis.server.url);
    opened.push({ close: async () => void client.disconnect() });
    // The limiter refuses a client not yet connected (rejectIfRedisNotReady, as the gateway sets it).
    await client.ping();
    const prefix = `spend-read-test-${Date.now()}:`;
    // The counter as BudgetLedger.record adds to it through the Redis state (`${prefix}limits:budget:month`).
    await new RedisWindowCounter(client, `${prefix}limits:budget:month`, Number.MAX_SAFE_INTEGER, 86_400).add('team:2026-12', 2_000);
    const reservations = new RedisSpendReservations(client, prefix, 60_000);
    const request = { counter: 'budget:month', countKey: 'team:2026-12', holder: 'team', budgetPoints: 2_500, estimatePoints: 1_000 };
    // Alone, under the budget: admitted; beside it, 2,000 spent + 1,000 reserved + 1,000 passes 2,500.
    expect(await reservations.reserve(request)).toBeDefined();
    expect(await reservations.reserve(request)).toBeUndefined();
    // With 2,500 spent nothing is admitted, not even alone.
    await new RedisWindowCounter(client, `${prefix}limits:budget:month`, Number.MAX_SAFE_INTEGER, 86_400).add('team:2026-12', 500);
    expect(await reservations.reserve({ ...request, holder: 'alone' })).toBeUndefined();
  });

  it('GET /v1/usage on either replica counts the replies both served (scope: shared)', async () => {
    const state = { redis: redis.server.url, keyPrefix: `usage-test-${Date.now()}:` };
    const first = await setUp(1, { state });
    const second = await setUp(1, { state });
    await (await chat(first.gateway, 'team-key')).arrayBuffer();
    await (await chat(second.gateway, 'team-key')).arrayBuffer();
    await (await chat(second.gateway, 'other-key')).arrayBuffer();
    // Recorded without the request waiting: give the pipelined increments a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    type UsageBody = {
      scope: string;
      keys: { key: string; cost_usd: number; requests: number; data: { model: string; input_tokens: number; requests: number }[] }[];
    };
    for (const replica of [first, second]) {
      const usage = (await (
        await fetch(`${replica.gateway.baseUrl}/v1/usage`, { headers: { authorization: 'Bearer ops-key' } })
      ).json()) as UsageBody;
      expect(usage.scope).toBe('shared');
      const team = usage.keys.find((key) => key.key === 'team');
      expect(team?.requests).toBe(2);
      expect(team?.cost_usd).toBeCloseTo(2 * costPerReply, 9);
      expect(team?.data).toEqual([expect.objectContaining({ model: 'local/m', requests: 2, input_tokens: 22 })]);
      expect(usage.keys.find((key) => key.key === 'other')?.requests).toBe(1);
    }
    const own = (await (
      await fetch(`${first.gateway.baseUrl}/v1/usage?period=day`, { headers: { authorization: 'Bearer other-key' } })
    ).json()) as UsageBody;
    expect(own.keys.map((key) => key.key)).toEqual(['other']);
  });
});
