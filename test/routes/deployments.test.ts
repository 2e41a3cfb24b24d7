import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOllamaUpstream } from '../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { redisServerPath, warnWhenRedisIsMissing } from '../helpers/redis-server.js';
import { startGateway, testProvider, type StartedGateway, type TestConfigFile } from '../helpers/start-gateway.js';
import { useRedisServer } from '../helpers/use-redis-server.js';

warnWhenRedisIsMissing('the shared deployment cooldown test');

/** A loopback port nothing listens on: connecting to it is refused at once, as with a dead host. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

async function upstreams(count: number): Promise<FakeOpenAiUpstream[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startFakeOpenAiUpstream()));
  opened.push(...started);
  // Each answers every request it gets with a short text, unless a test queued something else.
  for (const upstream of started) upstream.respondWith(() => ({ type: 'chat', content: 'hello from upstream' }));
  return started;
}

async function gatewayWith(file: TestConfigFile): Promise<StartedGateway> {
  const gateway = await startGateway(file);
  opened.push(gateway);
  return gateway;
}

function provider(upstream: FakeOpenAiUpstream | number): Record<string, unknown> {
  const url = typeof upstream === 'number' ? `http://127.0.0.1:${upstream}` : upstream.url;
  return testProvider('openai-compatible', `${url}/v1`, { toolCalling: 'native', retries: { count: 0 } });
}

async function ask(gateway: StartedGateway, model: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }], ...extra }),
  });
}

describe('deployments: one name, several targets', () => {
  it('spreads requests by weight, names the target, keeps the name the client asked for', async () => {
    const [first, second] = await upstreams(2);
    const gateway = await gatewayWith({
      providers: { box1: provider(first!), box2: provider(second!) },
      deployments: { coder: { targets: [{ model: 'box1/qwen3-coder', weight: 3 }, { model: 'box2/qwen3-coder' }] } },
    });
    const counts: Record<string, number> = {};
    for (let index = 0; index < 200; index++) {
      const response = await ask(gateway, 'coder');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { model: string };
      expect(body.model).toBe('coder');
      const target = response.headers.get('x-interlingua-deployment') as string;
      counts[target] = (counts[target] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['box1/qwen3-coder', 'box2/qwen3-coder']);
    expect(counts['box1/qwen3-coder']).toBeGreaterThan(120);
    expect(first!.chatRequests().length + second!.chatRequests().length).toBe(200);
    expect(first!.lastChatBody().model).toBe('qwen3-coder');
  });

  it('skips a dead host: the request goes to the next target, and the dead one rests for its cooldown', async () => {
    const [alive] = await upstreams(1);
    const dead = await deadPort();
    const gateway = await gatewayWith({
      providers: { dead: provider(dead), alive: provider(alive!) },
      deployments: { coder: { targets: [{ model: 'dead/m' }, { model: 'alive/m' }], cooldownSeconds: 60 } },
    });
    const attempts: number[] = [];
    for (let index = 0; index < 30; index++) {
      const response = await ask(gateway, 'coder');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-interlingua-deployment')).toBe('alive/m');
      attempts.push(Number(response.headers.get('x-interlingua-attempts')));
    }
    // The dead host is tried at most once: after its failure it cools down behind the live one.
    expect(attempts.filter((count) => count > 1).length).toBeLessThanOrEqual(1);
    expect(alive!.chatRequests()).toHaveLength(30);
  });

  it('a target whose 200 reply is an error body rests like a 5xx: a whole-reply request moves on to the next target', async () => {
    const [broken, alive] = await upstreams(2);
    // The fake answers a non-streaming request with a 200 whose body is the error (as a server failing mid-generation does).
    broken!.respondWith(() => ({ type: 'chat', content: 'partial', streamError: { afterChunks: 1, message: 'engine died' } }));
    const gateway = await gatewayWith({
      providers: { broken: provider(broken!), alive: provider(alive!) },
      deployments: { coder: { targets: [{ model: 'broken/m', weight: 1_000 }, { model: 'alive/m' }], cooldownSeconds: 60 } },
    });
    const first = await ask(gateway, 'coder');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-interlingua-deployment')).toBe('alive/m');
    expect(first.headers.get('x-interlingua-attempts')).toBe('2');
    // Cooled down: the next request goes straight to the other target, though its weight is a thousandth.
    const second = await ask(gateway, 'coder');
    expect(second.headers.get('x-interlingua-attempts')).toBe('1');
    expect(broken!.chatRequests()).toHaveLength(1);
  });

  it.each([
    ['sends an error event', { streamError: { afterChunks: 3, message: 'engine died' } }],
    ['is cut off', { cutAfterChunks: 3 }],
  ])('a target whose stream %s mid-reply rests for its cooldown, as one failing before its headers does', async (_, failure) => {
    const [broken, alive] = await upstreams(2);
    broken!.respondWith(() => ({ type: 'chat', content: 'a partial answer', ...failure }));
    const gateway = await gatewayWith({
      providers: { broken: provider(broken!), alive: provider(alive!) },
      deployments: { coder: { targets: [{ model: 'broken/m', weight: 1e9 }, { model: 'alive/m' }], cooldownSeconds: 60 } },
    });
    // Part of the reply reached the client: it cannot move on, and gets the error in the stream.
    const first = await ask(gateway, 'coder', { stream: true });
    expect(first.headers.get('x-interlingua-deployment')).toBe('broken/m');
    const text = await first.text();
    expect(text).toContain('"content":"a p"');
    expect(text).toContain('"error"');
    // Cooled down: the next requests go to the other target, though its weight is a billionth.
    for (let index = 0; index < 3; index++) {
      const next = await ask(gateway, 'coder', { stream: true });
      expect(next.headers.get('x-interlingua-deployment')).toBe('alive/m');
      await next.text();
    }
    expect(broken!.chatRequests()).toHaveLength(1);
  });

  it.each([
    // vLLM reports a failure inside the stream it opened: `data: {"error": …}` (vllm/entrypoints/openai/serving_chat.py).
    ['sends an error event', { streamError: { afterChunks: 0, message: 'engine died' } }],
    ['is cut off', { cutAfterChunks: 1 }],
  ])('a stream whose target %s after its 200 headers, before any output, moves on to the next target', async (_, failure) => {
    const [broken, alive] = await upstreams(2);
    broken!.respondWith(() => ({ type: 'chat', content: 'never sent', ...failure }));
    const gateway = await gatewayWith({
      providers: { broken: provider(broken!), alive: provider(alive!) },
      deployments: { coder: { targets: [{ model: 'broken/m', weight: 1e9 }, { model: 'alive/m' }], cooldownSeconds: 60 } },
    });
    const response = await ask(gateway, 'coder', { stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-deployment')).toBe('alive/m');
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    const text = await response.text();
    expect(text).toContain('"content":"hel"');
    expect(text).not.toContain('"error"');
    expect(text).toContain('[DONE]');
    expect(broken!.chatRequests()).toHaveLength(1);
    expect(alive!.chatRequests()).toHaveLength(1);
  });

  it('a stream whose every target fails after its 200 headers, before any output: an error status, not a 200 with an error in it', async () => {
    const [first, second] = await upstreams(2);
    // vLLM reports a failure inside the stream it opened: `data: {"error": …}` (vllm/entrypoints/openai/serving_chat.py).
    for (const upstream of [first!, second!])
      upstream.respondWith(() => ({ type: 'chat', content: 'never sent', streamError: { afterChunks: 0, message: 'engine died' } }));
    const gateway = await gatewayWith({
      providers: { one: provider(first!), two: provider(second!) },
      deployments: { coder: { targets: [{ model: 'one/m' }, { model: 'two/m' }] } },
    });
    const response = await ask(gateway, 'coder', { stream: true });
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('engine died');
  });

  it('every target down: the error keeps its meaning and says what was tried', async () => {
    const gateway = await gatewayWith({
      providers: { one: provider(await deadPort()), two: provider(await deadPort()) },
      deployments: { coder: { targets: [{ model: 'one/m' }, { model: 'two/m' }] } },
    });
    const response = await ask(gateway, 'coder');
    expect(response.status).toBe(502);
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe('upstream_unavailable');
  });

  it('least-busy: a target holding a long stream gets no new request while another is idle', async () => {
    const [busy, idle] = await upstreams(2);
    // The first request either target gets is held open: that target stays busy.
    let held = false;
    const holdFirst = () =>
      held
        ? { type: 'chat' as const, content: 'quick' }
        : ((held = true), { type: 'chat' as const, content: 'a long story', holdAfterChunks: 2 });
    busy!.respondWith(holdFirst);
    idle!.respondWith(holdFirst);
    const gateway = await gatewayWith({
      providers: { busy: provider(busy!), idle: provider(idle!) },
      deployments: {
        coder: {
          strategy: 'least-busy',
          targets: [
            { model: 'busy/m', weight: 100 },
            { model: 'idle/m', weight: 100 },
          ],
        },
      },
    });
    // Open a stream; whichever target took it is now busy.
    const controller = new AbortController();
    const stream = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'coder', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    });
    const heldBy = stream.headers.get('x-interlingua-deployment');
    const other = heldBy === 'busy/m' ? 'idle/m' : 'busy/m';
    for (let index = 0; index < 10; index++) {
      const response = await ask(gateway, 'coder');
      expect(response.headers.get('x-interlingua-deployment')).toBe(other);
      await response.arrayBuffer();
    }
    controller.abort();
  });

  it('lists each deployment in /v1/models, and routes a streamed request through the official client', async () => {
    const [first] = await upstreams(1);
    const gateway = await gatewayWith({
      providers: { box1: provider(first!) },
      deployments: { coder: { targets: [{ model: 'box1/qwen3-coder' }] } },
    });
    const models = await gateway.client().models.list();
    expect(models.data.map((model) => model.id)).toContain('coder');
    const stream = await gateway
      .client()
      .chat.completions.create({ model: 'coder', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(stream.response.headers.get('x-interlingua-deployment')).toBe('box1/qwen3-coder');
    let text = '';
    for await (const chunk of stream.data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
  });

  it('a deployment name has its own fallbacks, tried after all its targets', async () => {
    const [spare] = await upstreams(1);
    const gateway = await gatewayWith({
      providers: { one: provider(await deadPort()), spare: provider(spare!) },
      deployments: { coder: { targets: [{ model: 'one/m' }] } },
      fallbacks: { coder: ['spare/m'] },
    });
    const response = await ask(gateway, 'coder');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-model')).toBe('spare/m');
    expect(response.headers.get('x-interlingua-deployment')).toBeNull();
  });

  it('a key allowed none of the targets but a fallback of the name is served by it; allowed nothing at all: 403', async () => {
    const [target, spare] = await upstreams(2);
    const gateway = await gatewayWith({
      server: {
        apiKeys: [
          { key: 'spare-only', name: 'spare-only', models: ['spare/*'] },
          { key: 'nothing', name: 'nothing', models: ['elsewhere/*'] },
        ],
      },
      providers: { one: provider(target!), spare: provider(spare!) },
      deployments: { coder: { targets: [{ model: 'one/m' }] } },
      fallbacks: { coder: ['spare/m'] },
    });
    const asKey = (key: string) =>
      fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: 'coder', messages: [{ role: 'user', content: 'hello' }] }),
      });
    const served = await asKey('spare-only');
    expect(served.status).toBe(200);
    expect(served.headers.get('x-interlingua-model')).toBe('spare/m');
    expect(target!.requests).toHaveLength(0);
    const refused = await asKey('nothing');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('model_not_allowed');
  });

  it('session affinity: the session header agents send (or prompt_cache_key) keeps a conversation on one target', async () => {
    const boxes = await upstreams(3);
    const gateway = await gatewayWith({
      providers: Object.fromEntries(boxes.map((box, index) => [`box${index}`, provider(box)])),
      deployments: { coder: { affinity: 'session', targets: boxes.map((_, index) => ({ model: `box${index}/m` })) } },
    });
    const targetOf = async (headers: Record<string, string>, body: Record<string, unknown>) => {
      const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ model: 'coder', ...body }),
      });
      expect(response.status).toBe(200);
      return response.headers.get('x-interlingua-deployment') as string;
    };
    // Each turn opens differently, so only the header can tie them together.
    const turn = (index: number) => ({ messages: [{ role: 'user', content: `turn ${index} of a session` }] });
    for (const header of ['x-session-id', 'x-session-affinity', 'session-id', 'x-claude-code-session-id', 'goose-session-id']) {
      const sessions = Array.from({ length: 12 }, (_, index) => `ses_${header}_${index}`);
      const chosen = new Set<string>();
      for (const session of sessions) {
        const targets = new Set<string>();
        for (let index = 0; index < 4; index++) targets.add(await targetOf({ [header]: session }, turn(index)));
        expect(targets.size).toBe(1);
        chosen.add([...targets][0]!);
      }
      // Twelve sessions over three equal targets: more than one target serves them.
      expect(chosen.size).toBeGreaterThan(1);
    }
    const byCacheKey = new Set<string>();
    for (let index = 0; index < 4; index++) byCacheKey.add(await targetOf({}, { ...turn(index), prompt_cache_key: 'repository-7' }));
    expect(byCacheKey.size).toBe(1);
  });

  it('three Ollama hosts and a dead one behind one name: requests spread, the dead host is skipped, each reply priced (free)', async () => {
    const hosts = await Promise.all([0, 1, 2].map(() => startFakeOllamaUpstream({ models: ['llama3.1:8b'] })));
    opened.push(...hosts);
    const ollama = (url: string) => testProvider('ollama', url, { toolCalling: 'native', retries: { count: 0 } });
    const gateway = await gatewayWith({
      providers: {
        'ollama-a': ollama(hosts[0]!.url),
        'ollama-b': ollama(hosts[1]!.url),
        'ollama-c': ollama(hosts[2]!.url),
        'ollama-dead': ollama(`http://127.0.0.1:${await deadPort()}`),
      },
      deployments: {
        llama: { targets: ['a', 'b', 'c', 'dead'].map((host) => ({ model: `ollama-${host}/llama3.1:8b` })), cooldownSeconds: 60 },
      },
      prices: { 'ollama-*/*': { input: 0, output: 0 } },
    });
    const counts: Record<string, number> = {};
    let attempts = 0;
    for (let index = 0; index < 90; index++) {
      const response = await ask(gateway, 'llama');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-interlingua-cost-usd')).toBe('0');
      attempts += Number(response.headers.get('x-interlingua-attempts'));
      const target = response.headers.get('x-interlingua-deployment') as string;
      counts[target] = (counts[target] ?? 0) + 1;
      await response.arrayBuffer();
    }
    expect(Object.keys(counts).sort()).toEqual(['ollama-a/llama3.1:8b', 'ollama-b/llama3.1:8b', 'ollama-c/llama3.1:8b']);
    for (const count of Object.values(counts)) expect(count).toBeGreaterThan(10);
    // The dead host was tried at most once: then it rested for its cooldown.
    expect(attempts).toBeLessThanOrEqual(91);
    for (const host of hosts) expect(host.requests.filter((request) => request.path === '/api/chat').length).toBeGreaterThan(10);
  });

  it('serves embeddings under the name too (it is used like an alias), on a target the key may use', async () => {
    const [first, second] = await upstreams(2);
    const gateway = await gatewayWith({
      server: { apiKeys: [{ key: 'box2-only', name: 'box2-only', models: ['box2/*'] }] },
      providers: { box1: provider(first!), box2: provider(second!) },
      deployments: { embedder: { targets: [{ model: 'box1/bge-m3', weight: 9 }, { model: 'box2/bge-m3' }] } },
    });
    const response = await fetch(`${gateway.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer box2-only' },
      body: JSON.stringify({ model: 'embedder', input: 'hello' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-deployment')).toBe('box2/bge-m3');
    expect(((await response.json()) as { model: string }).model).toBe('embedder');
    expect(second!.requests.at(-1)?.body).toMatchObject({ model: 'bge-m3', input: 'hello' });
  });

  describe("embeddings through a deployment: the chats' balancing, failover and retries", () => {
    function embed(gateway: StartedGateway, model = 'embedder'): Promise<Response> {
      return fetch(`${gateway.baseUrl}/v1/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: 'hello' }),
      });
    }

    it('a target that answers 503 is left for the next one, and rests for its cooldown', async () => {
      const [broken, alive] = await upstreams(2);
      broken!.enqueueEmbeddings({ type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' });
      const gateway = await gatewayWith({
        providers: { broken: provider(broken!), alive: provider(alive!) },
        deployments: { embedder: { targets: [{ model: 'broken/bge-m3', weight: 1_000 }, { model: 'alive/bge-m3' }], cooldownSeconds: 60 } },
      });
      const first = await embed(gateway);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-interlingua-deployment')).toBe('alive/bge-m3');
      expect(first.headers.get('x-interlingua-attempts')).toBe('2');
      // Cooled down: the next request goes straight to the other target, though its weight is a thousandth.
      const second = await embed(gateway);
      expect(second.headers.get('x-interlingua-attempts')).toBe('1');
      expect(broken!.embeddingRequests()).toHaveLength(1);
      expect(alive!.embeddingRequests()).toHaveLength(2);
    });

    it('a 4xx is about the request: it keeps its status and message, moves on to no other target, and cools none down', async () => {
      const [first, second] = await upstreams(2);
      first!.enqueueEmbeddings({ type: 'http-error', status: 400, message: 'input is too long', errorType: 'invalid_request_error' });
      const gateway = await gatewayWith({
        providers: { one: provider(first!), two: provider(second!) },
        deployments: { embedder: { targets: [{ model: 'one/bge-m3', weight: 1_000 }, { model: 'two/bge-m3' }], cooldownSeconds: 60 } },
      });
      const refused = await embed(gateway);
      expect(refused.status).toBe(400);
      expect(refused.headers.get('x-interlingua-attempts')).toBe('1');
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('input is too long');
      expect(second!.embeddingRequests()).toHaveLength(0);
      // The target does not rest: the next request goes to it again.
      const next = await embed(gateway);
      expect(next.headers.get('x-interlingua-deployment')).toBe('one/bge-m3');
      expect(first!.embeddingRequests()).toHaveLength(2);
    });

    it('every target down: 502 upstream_unavailable after trying each, with what was tried last', async () => {
      const gateway = await gatewayWith({
        providers: { one: provider(await deadPort()), two: provider(await deadPort()) },
        deployments: { embedder: { targets: [{ model: 'one/bge-m3' }, { model: 'two/bge-m3' }] } },
      });
      const response = await embed(gateway);
      expect(response.status).toBe(502);
      expect(response.headers.get('x-interlingua-attempts')).toBe('2');
      expect(['one/bge-m3', 'two/bge-m3']).toContain(response.headers.get('x-interlingua-model'));
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upstream_unavailable');
    });

    it('a target whose provider has no embeddings endpoint (Anthropic) is skipped; a deployment with none that can: 400', async () => {
      const [alive] = await upstreams(1);
      const claude = testProvider('anthropic', 'http://127.0.0.1:9', { apiKey: 'sk-ant-test' });
      const gateway = await gatewayWith({
        providers: { claude, alive: provider(alive!) },
        deployments: {
          embedder: { targets: [{ model: 'claude/claude-sonnet-4', weight: 1_000 }, { model: 'alive/bge-m3' }] },
          chatOnly: { targets: [{ model: 'claude/claude-sonnet-4' }] },
        },
      });
      const response = await embed(gateway);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-interlingua-deployment')).toBe('alive/bge-m3');
      expect(response.headers.get('x-interlingua-attempts')).toBe('1');
      const refused = await embed(gateway, 'chatOnly');
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('embeddings_unsupported');
      expect(body.error.message).toContain("deployment 'chatOnly'");
    });

    it("an embeddings request in flight counts in least-busy's load: the chats go to the idle target meanwhile", async () => {
      const [first, second] = await upstreams(2);
      // Whichever target takes the embeddings request holds it for a while.
      for (const upstream of [first!, second!]) upstream.enqueueEmbeddings({ type: 'embeddings', headersDelayMs: 1_500 });
      const gateway = await gatewayWith({
        providers: { one: provider(first!), two: provider(second!) },
        deployments: { both: { strategy: 'least-busy', targets: [{ model: 'one/m' }, { model: 'two/m' }] } },
      });
      const held = embed(gateway, 'both');
      await vi.waitFor(() => expect(first!.embeddingRequests().length + second!.embeddingRequests().length).toBe(1));
      const other = first!.embeddingRequests().length === 1 ? 'two/m' : 'one/m';
      for (let index = 0; index < 6; index++) {
        const response = await ask(gateway, 'both');
        expect(response.headers.get('x-interlingua-deployment')).toBe(other);
        await response.arrayBuffer();
      }
      expect((await held).status).toBe(200);
    });

    it("the provider's retries run first, as for a chat: a 503 then an answer from the same target", async () => {
      const [flaky, spare] = await upstreams(2);
      flaky!.enqueueEmbeddings({ type: 'http-error', status: 503, message: 'loading model', errorType: 'server_error' });
      const gateway = await gatewayWith({
        providers: {
          flaky: testProvider('openai-compatible', `${flaky!.url}/v1`, { retries: { count: 1, initialDelayMs: 1 } }),
          spare: provider(spare!),
        },
        deployments: { embedder: { targets: [{ model: 'flaky/bge-m3', weight: 1_000 }, { model: 'spare/bge-m3' }] } },
      });
      const response = await embed(gateway);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-interlingua-deployment')).toBe('flaky/bge-m3');
      expect(response.headers.get('x-interlingua-attempts')).toBe('2');
      expect(spare!.embeddingRequests()).toHaveLength(0);
    });
  });

  describe('every target rate-limited: the soonest time any of them accepts again', () => {
    /** OpenAI's 429 (https://platform.openai.com/docs/guides/error-codes): `retry-after` in seconds, code rate_limit_exceeded. */
    const rateLimited = (retryAfter?: string) => ({
      type: 'http-error' as const,
      status: 429,
      message: 'Rate limit reached for requests',
      errorType: 'requests',
      code: 'rate_limit_exceeded',
      ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
    });
    const post = (gateway: StartedGateway, path: string, body: Record<string, unknown>) =>
      fetch(`${gateway.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const routes = [
      {
        api: 'chat',
        refuse: (upstream: FakeOpenAiUpstream, retryAfter?: string) => upstream.enqueue(rateLimited(retryAfter)),
        request: (gateway: StartedGateway) =>
          post(gateway, '/v1/chat/completions', { model: 'both', messages: [{ role: 'user', content: 'hi' }] }),
        envelope: { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
      },
      {
        api: 'messages',
        refuse: (upstream: FakeOpenAiUpstream, retryAfter?: string) => upstream.enqueue(rateLimited(retryAfter)),
        request: (gateway: StartedGateway) =>
          post(gateway, '/v1/messages', { model: 'both', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
        envelope: { type: 'error', error: { type: 'rate_limit_error' } },
      },
      {
        api: 'embeddings',
        refuse: (upstream: FakeOpenAiUpstream, retryAfter?: string) => upstream.enqueueEmbeddings(rateLimited(retryAfter)),
        request: (gateway: StartedGateway) => post(gateway, '/v1/embeddings', { model: 'both', input: 'hi' }),
        envelope: { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
      },
    ];
    // The first target is tried first (its weight makes the other's chance a billionth): the last one answers the latest time.
    async function bothRateLimited(): Promise<{ gateway: StartedGateway; first: FakeOpenAiUpstream; last: FakeOpenAiUpstream }> {
      const [soon, late] = await upstreams(2);
      const gateway = await gatewayWith({
        providers: { soon: provider(soon!), late: provider(late!) },
        deployments: { both: { targets: [{ model: 'soon/m', weight: 1e9 }, { model: 'late/m' }] } },
      });
      return { gateway, first: soon!, last: late! };
    }

    it.each(routes)(
      '$api: a target that answered 429 with a retry-after rests that long: the next request goes to the other one',
      async (route) => {
        const { gateway, first } = await bothRateLimited();
        route.refuse(first, '30');
        const answered = await route.request(gateway);
        expect(answered.status).toBe(200);
        expect(answered.headers.get('x-interlingua-deployment')).toBe('late/m');
        const next = await route.request(gateway);
        expect(next.status).toBe(200);
        expect(next.headers.get('x-interlingua-deployment')).toBe('late/m');
        expect(next.headers.get('x-interlingua-attempts')).toBe('1');
      },
    );

    it.each(routes)('$api: a 429 whose retry-after is the soonest of the targets, not the last one tried', async (route) => {
      const { gateway, first, last } = await bothRateLimited();
      route.refuse(first, '5');
      route.refuse(last, '60');
      const response = await route.request(gateway);
      expect(response.status).toBe(429);
      expect(response.headers.get('x-interlingua-attempts')).toBe('2');
      expect(response.headers.get('x-interlingua-model')).toBe('late/m');
      expect(response.headers.get('retry-after')).toBe('5');
      // The rate limit's own status and envelope, in the client's API.
      expect(await response.json()).toMatchObject(route.envelope);
    });

    it.each(routes)('$api: a target that says nothing of when may accept at once: no retry-after is promised', async (route) => {
      const { gateway, first, last } = await bothRateLimited();
      route.refuse(first);
      route.refuse(last, '60');
      const response = await route.request(gateway);
      expect(response.status).toBe(429);
      expect(response.headers.get('x-interlingua-attempts')).toBe('2');
      expect(response.headers.get('retry-after')).toBeNull();
    });
  });

  describe('what a failed target costs the client: nothing (docs/cost-and-budgets.md)', () => {
    type UsageRow = {
      model: string;
      requests: number;
      input_tokens: number;
      output_tokens: number;
      cost_usd: number;
      estimated_cost_usd: number;
    };
    async function pricedDeployment(broken: FakeOpenAiUpstream | number, alive: FakeOpenAiUpstream | number): Promise<StartedGateway> {
      return gatewayWith({
        server: { apiKeys: [{ key: 'team-key', name: 'team', budget: { usd: 10, period: 'month' } }] },
        providers: { broken: provider(broken), alive: provider(alive) },
        // The broken target first (its weight makes the other's chance a billionth).
        deployments: { coder: { targets: [{ model: 'broken/m', weight: 1e9 }, { model: 'alive/m' }] } },
        prices: { 'broken/*': { input: 300, output: 100 }, 'alive/*': { input: 300, output: 100 } },
      });
    }
    async function teamUsage(gateway: StartedGateway): Promise<{ spent: number; rows: UsageRow[] }> {
      const response = await fetch(`${gateway.baseUrl}/v1/usage`, { headers: { authorization: 'Bearer team-key' } });
      const body = (await response.json()) as { keys: { budget: { spent_usd: number }; data: UsageRow[] }[] };
      return { spent: body.keys[0]!.budget.spent_usd, rows: body.keys[0]!.data };
    }
    const chat = (gateway: StartedGateway, stream: boolean) =>
      fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer team-key' },
        body: JSON.stringify({ model: 'coder', stream, messages: [{ role: 'user', content: 'hi' }] }),
      });
    /** The fake's usage: 11 prompt and 7 completion tokens, at $300 and $100 per million. */
    const answeredCost = (11 * 300 + 7 * 100) / 1_000_000;

    it.each([
      ['a whole reply', false],
      ['a stream', true],
    ])('%s: a target that answered 503 is not charged, the one that answered is charged its usage', async (_, stream) => {
      const [broken, alive] = await upstreams(2);
      broken!.respondWith(() => ({ type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' }));
      const gateway = await pricedDeployment(broken!, alive!);
      const response = await chat(gateway, stream);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-interlingua-attempts')).toBe('2');
      await response.text();
      await vi.waitFor(async () => expect((await teamUsage(gateway)).rows).toHaveLength(1));
      const usage = await teamUsage(gateway);
      expect(usage.spent).toBeCloseTo(answeredCost, 12);
      expect(usage.rows).toEqual([
        expect.objectContaining({ model: 'alive/m', requests: 1, input_tokens: 11, output_tokens: 7, estimated_cost_usd: 0 }),
      ]);
    });

    it('every target failed (a refused connection, a 503): nothing is charged', async () => {
      const [broken] = await upstreams(1);
      broken!.respondWith(() => ({ type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' }));
      const gateway = await pricedDeployment(broken!, await deadPort());
      const response = await chat(gateway, false);
      expect(response.status).toBe(502);
      expect(response.headers.get('x-interlingua-attempts')).toBe('2');
      await response.text();
      // Anything recorded is recorded by the end of the reply's turn: a short wait is enough to see it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await teamUsage(gateway)).toEqual({ spent: 0, rows: [] });
    });
  });

  it('a chat with a key limited to one target: only that target is tried, whatever the weights, and its failure is the answer', async () => {
    const [first, second] = await upstreams(2);
    const gateway = await gatewayWith({
      server: { apiKeys: [{ key: 'box2-only', name: 'box2-only', models: ['box2/*'] }] },
      providers: { box1: provider(first!), box2: provider(second!) },
      deployments: { coder: { targets: [{ model: 'box1/m', weight: 1e9 }, { model: 'box2/m' }] } },
    });
    const chat = () =>
      fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer box2-only' },
        body: JSON.stringify({ model: 'coder', messages: [{ role: 'user', content: 'hi' }] }),
      });
    for (let index = 0; index < 3; index++) {
      const response = await chat();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-interlingua-deployment')).toBe('box2/m');
    }
    second!.enqueue({ type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' });
    const failed = await chat();
    expect(failed.status).toBe(503);
    expect(failed.headers.get('x-interlingua-attempts')).toBe('1');
    expect(first!.chatRequests()).toHaveLength(0);
  });

  it('count_tokens answers for a deployment name as the Messages call does, and for no model the key may not use', async () => {
    const [first, second] = await upstreams(2);
    const gateway = await gatewayWith({
      server: { apiKeys: [{ key: 'box2-only', name: 'box2-only', models: ['box2/*'] }] },
      providers: { box1: provider(first!), box2: provider(second!) },
      deployments: { claude: { targets: [{ model: 'box1/qwen3-coder' }, { model: 'box2/qwen3-coder' }] } },
    });
    const count = (model: string) =>
      fetch(`${gateway.baseUrl}/v1/messages/count_tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer box2-only' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
      });
    const deployment = await count('claude');
    expect(deployment.status).toBe(200);
    expect(await deployment.json()).toEqual({ input_tokens: 2 });
    const refused = await count('box1/qwen3-coder');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
  });

  it('refuses a config whose target names no configured provider, naming the path', async () => {
    await expect(
      startGateway({ providers: { box1: provider(1) }, deployments: { coder: { targets: [{ model: 'nowhere/m' }] } } }),
    ).rejects.toThrow(/deployments\.coder\.targets\.0\.model/);
  });

  it("refuses prices keyed by the deployment's name (never matched: replies are priced by the target that answered)", async () => {
    await expect(
      startGateway({
        providers: { box1: provider(1) },
        deployments: { coder: { targets: [{ model: 'box1/m' }] } },
        prices: { coder: { input: 1, output: 1 } },
      }),
    ).rejects.toThrow(/prices\.coder: 'coder' is a deployment.*price its targets \('box1\/m'\)/);
  });
});

describe.skipIf(!redisServerPath)('deployments on replicas sharing one Redis', () => {
  const redis = useRedisServer();

  it('a target that failed on one replica rests on the other within about a second', async () => {
    const [alive] = await upstreams(1);
    const dead = await deadPort();
    const file: TestConfigFile = {
      providers: { dead: provider(dead), alive: provider(alive!) },
      // The dead target first by weight: a replica that has not heard of its failure tries it first.
      deployments: {
        coder: {
          targets: [
            { model: 'dead/m', weight: 1_000 },
            { model: 'alive/m', weight: 0.001 },
          ],
          cooldownSeconds: 60,
        },
      },
      state: { redis: redis.server.url, keyPrefix: `deployments-${Date.now()}:` },
    };
    const first = await gatewayWith(file);
    const second = await gatewayWith(file);
    const seen = await ask(first, 'coder');
    expect(seen.headers.get('x-interlingua-attempts')).toBe('2');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const told = await ask(second, 'coder');
    expect(told.status).toBe(200);
    expect(told.headers.get('x-interlingua-deployment')).toBe('alive/m');
    expect(told.headers.get('x-interlingua-attempts')).toBe('1');
  });
  it("least-busy counts the other replica's requests in flight: a target busy there gets the new requests here last", async () => {
    const [one, two] = await upstreams(2);
    // A request that says 'hold' is held open; every other is answered at once.
    const holdWhenAsked = (request: { body: unknown }) =>
      JSON.stringify(request.body).includes('hold')
        ? { type: 'chat' as const, content: 'a long story', holdAfterChunks: 2 }
        : { type: 'chat' as const, content: 'quick' };
    one!.respondWith(holdWhenAsked);
    two!.respondWith(holdWhenAsked);
    const file: TestConfigFile = {
      providers: { one: provider(one!), two: provider(two!) },
      deployments: { coder: { strategy: 'least-busy', targets: [{ model: 'one/m' }, { model: 'two/m' }] } },
      state: { redis: redis.server.url, keyPrefix: `deployment-load-${Date.now()}:` },
    };
    const first = await gatewayWith(file);
    const second = await gatewayWith(file);
    const controller = new AbortController();
    const held = await fetch(`${first.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'coder', stream: true, messages: [{ role: 'user', content: 'hold' }] }),
      signal: controller.signal,
    });
    const heldBy = held.headers.get('x-interlingua-deployment');
    const other = heldBy === 'one/m' ? 'two/m' : 'one/m';
    // Written in one second, read in the next: within about two seconds the second replica knows.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    for (let index = 0; index < 10; index++) {
      const response = await ask(second, 'coder');
      expect(response.headers.get('x-interlingua-deployment')).toBe(other);
      await response.arrayBuffer();
    }
    controller.abort();
  });
});
