/** SIGHUP and POST /admin/reload against the real entry point: new requests get the new config, live streams keep theirs. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, GatewayProcesses, logMessages, waitForHealth, type StartedProcess } from './helpers/gateway-process.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from './helpers/fake-openai-upstream.js';

const processes = new GatewayProcesses();
let upstream: FakeOpenAiUpstream;
let configPath: string;
let started: StartedProcess;
let baseUrl: string;

function writeConfig(teamLimit: number, extra: Record<string, unknown> = {}, teamExtra: Record<string, unknown> = {}): void {
  const config = {
    server: {
      apiKeys: [
        { key: 'team-key', name: 'team', limits: { requestsPerMinute: teamLimit }, ...teamExtra },
        { key: 'ops-key', name: 'ops', admin: true },
      ],
    },
    providers: { local: { type: 'openai-compatible', baseUrl: `${upstream.url}/v1`, toolCalling: 'native', server: 'generic' } },
    ...extra,
  };
  writeFileSync(configPath, JSON.stringify(config));
}

function chat(key: string, model = 'local/m', stream = false): Promise<Response> {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

async function waitForLog(message: string, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (logMessages(started.output()).filter((line) => line === message).length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no '${message}' in the log:\n${started.output()}`);
}

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.respondWith(() => ({ type: 'chat', content: 'hello' }));
  configPath = path.join(mkdtempSync(path.join(tmpdir(), 'live-reload-')), 'gateway.json');
  writeConfig(1_000);
  const port = await freePort();
  started = processes.start(['--config', configPath, '--port', String(port)]);
  await waitForHealth(started, port);
  baseUrl = `http://127.0.0.1:${port}`;
}, 90_000);

afterAll(async () => {
  processes.killAll();
  await upstream.close();
});

describe('live config', () => {
  it('SIGHUP: a lower limit applies to the next requests, counting those before it, while a stream started before runs to its end', async () => {
    // A slow stream: 40 pieces, 50 ms apart.
    upstream.respondWith(() => ({ type: 'chat', content: 'x'.repeat(40), fragmentSize: 1, chunkDelayMs: 50 }));
    const stream = await chat('team-key', 'local/m', true);
    expect(stream.status).toBe(200);
    upstream.respondWith(() => ({ type: 'chat', content: 'hello' }));
    writeConfig(1);
    started.child.kill('SIGHUP');
    await waitForLog('config reloaded: new requests use it; live streams finish on the config they started with', 1);
    // The window counts on across the reload: the stream was this minute's one request.
    const refused = await chat('team-key');
    expect(refused.status).toBe(429);
    const text = await stream.text();
    expect(text).toContain('data: [DONE]');
    expect(text.match(/"content":"x"/g)?.length).toBe(40);
  }, 60_000);

  it('an invalid file is refused with its reason and the running config is kept', async () => {
    writeFileSync(configPath, JSON.stringify({ providers: { local: { type: 'no-such-kind' } } }));
    started.child.kill('SIGHUP');
    await waitForLog('config reload refused: the running config is kept', 1);
    // Still the config of the last good reload: one request a minute for the team key, used up above.
    expect((await chat('team-key')).status).toBe(429);
    expect((await chat('ops-key')).status).toBe(200);
  }, 60_000);

  it('POST /admin/reload: admin keys only; answers the reason when the file is invalid; adds a deployment live', async () => {
    const reload = (key: string) => fetch(`${baseUrl}/admin/reload`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    const forbidden = await reload('team-key');
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { code: string } }).error.code).toBe('admin_only');
    const invalid = await reload('ops-key');
    expect(invalid.status).toBe(422);
    const body = (await invalid.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('config_invalid');
    expect(body.error.message).toContain('providers.local');
    writeConfig(1_000, { deployments: { coder: { targets: [{ model: 'local/m' }] } } });
    const accepted = await reload('ops-key');
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ reloaded: true });
    const response = await chat('team-key', 'coder');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-deployment')).toBe('local/m');
  }, 60_000);

  it('a reload that removes a deployment: a stream through it finishes on the old config, the next request for the name is refused clearly', async () => {
    const reload = () => fetch(`${baseUrl}/admin/reload`, { method: 'POST', headers: { authorization: 'Bearer ops-key' } });
    writeConfig(1_000, { deployments: { coder: { targets: [{ model: 'local/m' }] } } });
    expect((await reload()).status).toBe(200);
    upstream.enqueue({ type: 'chat', content: 'one two three four', fragmentSize: 2, chunkDelayMs: 100 });
    const stream = await chat('team-key', 'coder', true);
    expect(stream.headers.get('x-interlingua-deployment')).toBe('local/m');
    writeConfig(1_000);
    expect((await reload()).status).toBe(200);
    const refused = await chat('team-key', 'coder');
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { code: string; param: string } }).error).toMatchObject({
      code: 'model_not_found',
      param: 'model',
    });
    // The stream was still arriving (ten frames, 100 ms apart) while the config changed under it.
    const text = await stream.text();
    const streamed = [...text.matchAll(/"content":"([^"]*)"/g)].map((match) => match[1]).join('');
    expect(streamed).toBe('one two three four');
    expect(text).toContain('[DONE]');
  }, 60_000);

  it('an embeddings request in flight during a reload finishes on the old config', async () => {
    const reload = () => fetch(`${baseUrl}/admin/reload`, { method: 'POST', headers: { authorization: 'Bearer ops-key' } });
    upstream.enqueueEmbeddings({ type: 'embeddings', headersDelayMs: 3_000 });
    const pending = fetch(`${baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
      body: JSON.stringify({ model: 'local/embedder', input: 'hello' }),
    });
    await upstream.nextRequest();
    writeConfig(1_000);
    expect((await reload()).status).toBe(200);
    const response = await pending;
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect((JSON.parse(text) as { data: unknown[] }).data).toHaveLength(1);
  }, 60_000);

  it('a reload does not forgive spend: the budget counts on across the new config', async () => {
    // Each reply costs (11 × 300 + 7 × 100) / 1e6 = $0.004 with the fake's usage: one reply spends the budget.
    const budgeted = () =>
      writeConfig(1_000, { prices: { 'local/*': { input: 300, output: 100 } } }, { budget: { usd: 0.004, period: 'day' } });
    budgeted();
    const reload = () => fetch(`${baseUrl}/admin/reload`, { method: 'POST', headers: { authorization: 'Bearer ops-key' } });
    expect((await reload()).status).toBe(200);
    const spent = await chat('team-key');
    expect(spent.status).toBe(200);
    expect(spent.headers.get('x-interlingua-cost-usd')).toBe('0.004');
    budgeted();
    expect((await reload()).status).toBe(200);
    const refused = await chat('team-key');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('budget_exceeded');
  }, 60_000);

  it("a reload that changes a price or a key's budget applies to the next request, counting the spend made before it", async () => {
    const reload = () => fetch(`${baseUrl}/admin/reload`, { method: 'POST', headers: { authorization: 'Bearer ops-key' } });
    const priced = (input: number, output: number, usd: number) =>
      writeConfig(1_000, { prices: { 'local/*': { input, output } } }, { budget: { usd, period: 'week' } });
    const spentUsd = async (): Promise<number> => {
      const response = await fetch(`${baseUrl}/v1/usage?period=week`, { headers: { authorization: 'Bearer team-key' } });
      return ((await response.json()) as { keys: { budget: { spent_usd: number } }[] }).keys[0]!.budget.spent_usd;
    };
    priced(300, 100, 1);
    expect((await reload()).status).toBe(200);
    const before = await spentUsd();
    // The fake's usage, 11 prompt and 7 completion tokens: (11 × 300 + 7 × 100) / 1e6 = $0.004.
    const first = await chat('team-key');
    expect(first.headers.get('x-interlingua-cost-usd')).toBe('0.004');
    await first.arrayBuffer();
    // Prices doubled: (11 × 600 + 7 × 200) / 1e6 = $0.008, and the budget set to what is spent now.
    priced(600, 200, before + 0.012);
    expect((await reload()).status).toBe(200);
    const second = await chat('team-key');
    expect(second.headers.get('x-interlingua-cost-usd')).toBe('0.008');
    expect(Number(second.headers.get('x-interlingua-budget-usd'))).toBeCloseTo(before + 0.012, 9);
    await second.arrayBuffer();
    expect(await spentUsd()).toBeCloseTo(before + 0.012, 9);
    const refused = await chat('team-key');
    expect(refused.status).toBe(429);
    await refused.arrayBuffer();
    // A budget raised by the reload admits the key again.
    priced(600, 200, before + 0.02);
    expect((await reload()).status).toBe(200);
    const admitted = await chat('team-key');
    expect(admitted.status).toBe(200);
    expect(Number(admitted.headers.get('x-interlingua-budget-remaining-usd'))).toBeCloseTo(0, 6);
    await admitted.arrayBuffer();
  }, 60_000);

  // Each app kept its own reservations: the reloaded app admitted a request as if none were in flight.
  it("a reload keeps the reservations of requests in flight: the new app admits beside the old app's", async () => {
    writeFileSync(
      configPath,
      JSON.stringify({
        server: {
          apiKeys: [
            { key: 'burst-key', name: 'burst', budget: { usd: 0.0025, period: 'month' } },
            { key: 'ops-key', name: 'ops', admin: true },
          ],
        },
        providers: { local: { type: 'openai-compatible', baseUrl: `${upstream.url}/v1`, toolCalling: 'native', server: 'generic' } },
        prices: { 'local/*': { input: 300, output: 100 } },
      }),
    );
    const reload = () => fetch(`${baseUrl}/admin/reload`, { method: 'POST', headers: { authorization: 'Bearer ops-key' } });
    // max_tokens 7: each reserves (1 prompt token × $300 + 7 × $100) / 1e6 = $0.001.
    const boundedChat = () =>
      fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer burst-key' },
        body: JSON.stringify({ model: 'local/m', max_tokens: 7, messages: [{ role: 'user', content: 'hi' }] }),
      });
    expect((await reload()).status).toBe(200);
    const before = upstream.chatRequests().length;
    upstream.respondWith(() => ({ type: 'chat', content: 'hello', headersDelayMs: 2_000 }));
    try {
      const inFlight = [boundedChat(), boundedChat()];
      const deadline = Date.now() + 10_000;
      while (upstream.chatRequests().length < before + 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // The same file again: a new app, while the two run on the old one.
      expect((await reload()).status).toBe(200);
      // $0.002 reserved by the old app's two: a third passes $0.0025.
      const refused = await boundedChat();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('budget_exceeded');
      expect(refused.headers.get('x-interlingua-budget-remaining-usd')).toBe('0.000500');
      for (const response of await Promise.all(inFlight)) expect(response.status).toBe(200);
    } finally {
      upstream.respondWith(() => ({ type: 'chat', content: 'hello' }));
    }
  }, 60_000);

  it('a reload keeps rate-limit windows, stored responses and the metrics counters', async () => {
    const limited = () =>
      writeFileSync(
        configPath,
        JSON.stringify({
          server: {
            apiKeys: [
              { key: 'fresh-key', name: 'fresh', limits: { requestsPerMinute: 2 } },
              { key: 'ops-key', name: 'ops', admin: true },
            ],
          },
          providers: { local: { type: 'openai-compatible', baseUrl: `${upstream.url}/v1`, toolCalling: 'native', server: 'generic' } },
        }),
      );
    const reload = () => fetch(`${baseUrl}/admin/reload`, { method: 'POST', headers: { authorization: 'Bearer ops-key' } });
    const requestsServed = async () => {
      const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: 'Bearer ops-key' } })).text();
      return text
        .split('\n')
        .filter((line) => line.startsWith('interlingua_requests_total{'))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    };
    limited();
    expect((await reload()).status).toBe(200);
    expect((await chat('fresh-key')).status).toBe(200);
    const stored = await fetch(`${baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer fresh-key' },
      body: JSON.stringify({ model: 'local/m', input: 'remember this' }),
    });
    expect(stored.status).toBe(200);
    const { id } = (await stored.json()) as { id: string };
    const servedBefore = await requestsServed();
    expect(servedBefore).toBeGreaterThan(0);
    // The same file again: a new app on the same config, as any reload makes.
    expect((await reload()).status).toBe(200);
    // Two requests a minute, both used before the reload: the window goes on.
    const refused = await chat('fresh-key');
    expect(refused.status).toBe(429);
    const continued = await fetch(`${baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ops-key' },
      body: JSON.stringify({ model: 'local/m', input: 'and now?', previous_response_id: id }),
    });
    expect(continued.status).toBe(200);
    expect(await requestsServed()).toBeGreaterThanOrEqual(servedBefore);
  }, 60_000);
});
