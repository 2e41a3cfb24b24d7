/**
 * Deployments as a team running the gateway uses them, through the real `openai` client: every strategy
 * against every way a target fails (whole and streamed), cooldowns running out, every target down, session
 * affinity moving off a failed target and back, the x-interlingua-* headers in each case, and targets that
 * mix lanes and providers (docs/deployments.md).
 */
import { createServer } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOllamaUpstream } from '../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiReply, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway, type TestConfigFile } from '../helpers/start-gateway.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

/** A loopback port nothing listens on: connecting to it is refused at once, as with a dead host. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function upstream(): Promise<FakeOpenAiUpstream> {
  const started = await startFakeOpenAiUpstream();
  opened.push(started);
  started.respondWith(() => ({ type: 'chat', content: 'hello from upstream' }));
  return started;
}

async function gatewayWith(file: TestConfigFile): Promise<StartedGateway> {
  const gateway = await startGateway(file);
  opened.push(gateway);
  return gateway;
}

/** A provider whose answers must come within `headersMs` (the timeout case), with no retries of its own. */
function provider(url: string, headersMs = 10_000, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return testProvider('openai-compatible', `${url}/v1`, {
    toolCalling: 'native',
    retries: { count: 0 },
    timeouts: { connectMs: 2_000, headersMs, bodyMs: 10_000 },
    ...extra,
  });
}

type Headers = { deployment: string | null; model: string | null; attempts: string | null };

/** One chat through the official client, whole or streamed: its text and the x-interlingua-* headers. */
async function chat(client: OpenAI, stream: boolean, extra: Partial<OpenAI.ChatCompletionCreateParams> = {}) {
  const body = { model: 'coder', messages: [{ role: 'user' as const, content: 'hello' }], ...extra };
  const headersOf = (response: Response): Headers => ({
    deployment: response.headers.get('x-interlingua-deployment'),
    model: response.headers.get('x-interlingua-model'),
    attempts: response.headers.get('x-interlingua-attempts'),
  });
  if (!stream) {
    const { data, response } = await client.chat.completions.create({ ...body, stream: false }).withResponse();
    return { text: data.choices[0]?.message.content ?? '', model: data.model, headers: headersOf(response) };
  }
  const { data, response } = await client.chat.completions.create({ ...body, stream: true }).withResponse();
  let text = '';
  let model = '';
  for await (const chunk of data) {
    model = chunk.model;
    text += chunk.choices[0]?.delta.content ?? '';
  }
  return { text, model, headers: headersOf(response) };
}

/** Waits until the wall clock reads `time` (a cooldown running out). */
async function sleepUntil(time: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
}

/** How a target fails, as its server does it; `rests`: whether the next request skips it. */
type Failure = { name: string; rests: boolean; reply?: FakeOpenAiReply; refused?: true; slow?: true };

/** OpenAI's 429 (https://platform.openai.com/docs/guides/error-codes): code rate_limit_exceeded, `retry-after` in seconds. */
const rateLimited = (headers: Record<string, string> = {}): FakeOpenAiReply => ({
  type: 'http-error',
  status: 429,
  message: 'Rate limit reached for requests',
  errorType: 'requests',
  code: 'rate_limit_exceeded',
  headers,
});

const failures: Failure[] = [
  { name: '503', rests: true, reply: { type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' } },
  { name: 'a refused connection', rests: true, refused: true },
  // The headers come after the provider's headersMs (300 below).
  { name: 'a headers timeout', rests: true, slow: true, reply: { type: 'chat', content: 'too late', headersDelayMs: 2_000 } },
  { name: 'a reset connection', rests: true, reply: { type: 'reset' } },
  { name: '429 with retry-after', rests: true, reply: rateLimited({ 'retry-after': '30' }) },
  { name: '429 with retry-after-ms', rests: true, reply: rateLimited({ 'retry-after-ms': '30000' }) },
  { name: '429 saying nothing of when', rests: false, reply: rateLimited() },
];

const strategies = ['weighted', 'least-busy', 'latency'] as const;

describe.each(strategies)('strategy %s: a target that fails', (strategy) => {
  describe.each([false, true])('stream %s', (stream) => {
    it.each(failures)('$name: the request moves on, the headers say so, and the target rests or not as documented', async (failure) => {
      const alive = await upstream();
      const broken = failure.refused ? undefined : await upstream();
      if (broken && failure.reply) {
        const reply = failure.reply;
        broken.respondWith(() => reply);
      }
      const brokenUrl = broken ? broken.url : `http://127.0.0.1:${await deadPort()}`;
      // The broken target comes first by weight (a draw under weighted, ties under least-busy, neither measured under latency).
      const gateway = await gatewayWith({
        providers: { broken: provider(brokenUrl, failure.slow ? 300 : 10_000), alive: provider(alive.url) },
        deployments: { coder: { strategy, targets: [{ model: 'broken/m', weight: 1e9 }, { model: 'alive/m' }], cooldownSeconds: 60 } },
      });
      const client = gateway.client();
      const first = await chat(client, stream);
      expect(first.text).toBe('hello from upstream');
      expect(first.model).toBe('coder');
      expect(first.headers).toEqual({ deployment: 'alive/m', model: 'alive/m', attempts: '2' });
      const second = await chat(client, stream);
      expect(second.headers).toEqual({ deployment: 'alive/m', model: 'alive/m', attempts: failure.rests ? '1' : '2' });
      if (broken) expect(broken.chatRequests()).toHaveLength(failure.rests ? 1 : 2);
    });
  });
});

describe('cooldowns run out', () => {
  it.each(strategies)('%s: a target that failed is used again once its cooldown is over, and serves', async (strategy) => {
    const [flaky, steady] = [await upstream(), await upstream()];
    flaky.enqueue({ type: 'http-error', status: 502, message: 'bad gateway', errorType: 'server_error' });
    flaky.respondWith(() => ({ type: 'chat', content: 'flaky is back' }));
    const gateway = await gatewayWith({
      providers: { flaky: provider(flaky.url), steady: provider(steady.url) },
      deployments: { coder: { strategy, targets: [{ model: 'flaky/m', weight: 1e9 }, { model: 'steady/m' }], cooldownSeconds: 1.5 } },
    });
    const client = gateway.client();
    expect((await chat(client, false)).headers).toEqual({ deployment: 'steady/m', model: 'steady/m', attempts: '2' });
    const failedAt = Date.now();
    expect((await chat(client, true)).headers).toEqual({ deployment: 'steady/m', model: 'steady/m', attempts: '1' });
    await sleepUntil(failedAt + 1_600);
    // Under latency the steady target is measured and the flaky one is not: it is tried first.
    const recovered = await chat(client, true);
    expect(recovered.text).toBe('flaky is back');
    expect(recovered.headers).toEqual({ deployment: 'flaky/m', model: 'flaky/m', attempts: '1' });
  });
});

describe('latency: a target measured for the first time', () => {
  it('a hung server being measured takes one request, not every request until its first one ends', async () => {
    const [hung, fast] = [await upstream(), await upstream()];
    hung.respondWith(() => ({ type: 'chat', content: 'at last', headersDelayMs: 3_000 }));
    const gateway = await gatewayWith({
      providers: { hung: provider(hung.url), fast: provider(fast.url) },
      // The fast target first by weight, measured on the first request; then the hung one is the only one not measured.
      deployments: { coder: { strategy: 'latency', targets: [{ model: 'hung/m' }, { model: 'fast/m', weight: 1e9 }] } },
    });
    const client = gateway.client();
    expect((await chat(client, false)).headers.deployment).toBe('fast/m');
    const measuring = chat(client, true);
    await vi.waitFor(() => expect(hung.chatRequests()).toHaveLength(1));
    for (let index = 0; index < 3; index++) {
      const started = Date.now();
      expect((await chat(client, index % 2 === 0)).headers.deployment).toBe('fast/m');
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    expect((await measuring).headers).toEqual({ deployment: 'hung/m', model: 'hung/m', attempts: '1' });
    expect(hung.chatRequests()).toHaveLength(1);
  });
});

describe('latency: a measured target that stops answering', () => {
  it('takes a bounded share of a steady stream of requests, not every request until they time out', async () => {
    const [fast, slower] = [await upstream(), await upstream()];
    // Delays well above the gateway's own time: the fast one measures about a quarter of the slower one.
    fast.respondWith(() => ({ type: 'chat', content: 'hello from upstream', headersDelayMs: 10 }));
    slower.respondWith(() => ({ type: 'chat', content: 'hello from upstream', headersDelayMs: 40 }));
    const gateway = await gatewayWith({
      providers: { fast: provider(fast.url), slower: provider(slower.url) },
      deployments: { coder: { strategy: 'latency', targets: [{ model: 'fast/m' }, { model: 'slower/m' }] } },
    });
    const client = gateway.client();
    // Connections opened and code warmed by direct requests (no deployment), so that the first samples are not a cold start's.
    for (const model of ['fast/m', 'slower/m', 'fast/m', 'slower/m']) await chat(client, false, { model });
    // Each is measured once (neither measured yet: both go first in turn), then the fast one takes the requests.
    for (let index = 0; index < 2; index++) await chat(client, false);
    expect((await chat(client, false)).headers.deployment).toBe('fast/m');
    // The fast server hangs (a stuck engine): its latency cannot move until a reply finishes.
    fast.respondWith(() => ({ type: 'chat', content: 'at last', headersDelayMs: 3_000 }));
    const replies: Promise<Awaited<ReturnType<typeof chat>>>[] = [];
    for (let index = 0; index < 60; index++) {
      replies.push(chat(client, index % 2 === 0));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const targets = (await Promise.all(replies)).map((reply) => reply.headers.deployment);
    // The requests waiting on it raise its rank until the slower one, whose replies finish, goes first: the
    // hung one keeps a share that falls as its requests pile up (how fast depends on the machine's load),
    // where it took every one.
    const hung = targets.filter((target) => target === 'fast/m').length;
    expect(hung).toBeGreaterThan(0);
    expect(targets.length - hung).toBeGreaterThanOrEqual(20);
  });
});

describe('every target down', () => {
  const down = async (fallback: boolean) => {
    const [one, two, spare] = [await upstream(), await upstream(), await upstream()];
    for (const target of [one, two])
      target.respondWith(() => ({ type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' }));
    spare.respondWith(() => ({ type: 'chat', content: 'the spare answered' }));
    const gateway = await gatewayWith({
      providers: { one: provider(one.url), two: provider(two.url), spare: provider(spare.url) },
      deployments: { coder: { targets: [{ model: 'one/m', weight: 1e9 }, { model: 'two/m' }], cooldownSeconds: 60 } },
      ...(fallback ? { fallbacks: { coder: ['spare/m'] } } : {}),
    });
    return { gateway, one, two, spare };
  };

  it.each([false, true])(
    'stream %s: the last error with its status, after trying each; cooling down, each is tried again',
    async (stream) => {
      const { gateway } = await down(false);
      for (let request = 0; request < 2; request++) {
        const error = await chat(gateway.client(), stream).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(OpenAI.APIError);
        const apiError = error as InstanceType<typeof OpenAI.APIError>;
        expect(apiError.status).toBe(503);
        expect(apiError.headers?.get('x-interlingua-attempts')).toBe('2');
        // The least recently failed first: one failed before two on the first request, so one is tried first again.
        expect(apiError.headers?.get('x-interlingua-model')).toBe('two/m');
        expect(apiError.headers?.get('x-interlingua-deployment')).toBeNull();
        expect(apiError.message).toContain('overloaded');
      }
    },
  );

  it.each([false, true])("stream %s: the name's fallback answers, and the headers name it", async (stream) => {
    const { gateway, one, two } = await down(true);
    for (let request = 0; request < 2; request++) {
      const answered = await chat(gateway.client(), stream);
      expect(answered.text).toBe('the spare answered');
      // As for any fallback (docs/operations.md), the body's model is the target that answered.
      expect(answered.model).toBe('spare/m');
      expect(answered.headers).toEqual({ deployment: null, model: 'spare/m', attempts: '3' });
    }
    expect(one.chatRequests()).toHaveLength(2);
    expect(two.chatRequests()).toHaveLength(2);
  });
});

describe('session affinity', () => {
  it('keeps a conversation on its target, moves it when that target fails, and brings it back after the cooldown', async () => {
    const boxes = [await upstream(), await upstream(), await upstream()];
    const gateway = await gatewayWith({
      providers: Object.fromEntries(boxes.map((box, index) => [`box${index}`, provider(box.url)])),
      deployments: {
        coder: { affinity: 'session', cooldownSeconds: 1.5, targets: boxes.map((_, index) => ({ model: `box${index}/m` })) },
      },
    });
    const client = gateway.client();
    const turn = async (stream: boolean, index: number) =>
      (
        await chat(client, stream, {
          messages: [
            { role: 'system', content: 'You are a coding agent.' },
            { role: 'user', content: 'fix the build' },
            { role: 'assistant', content: `step ${index}` },
            { role: 'user', content: 'go on' },
          ],
        })
      ).headers;
    const home = (await turn(false, 0)).deployment as string;
    for (let index = 1; index < 4; index++) expect((await turn(index % 2 === 0, index)).deployment).toBe(home);
    const homeBox = boxes[Number(home.slice('box'.length, home.indexOf('/')))]!;
    homeBox.enqueue({ type: 'http-error', status: 500, message: 'engine crashed', errorType: 'server_error' });
    const moved = await turn(true, 4);
    const failedAt = Date.now();
    expect(moved.deployment).not.toBe(home);
    expect(moved.attempts).toBe('2');
    // While its target rests the conversation stays on the one it moved to.
    for (let index = 5; index < 8; index++) expect((await turn(index % 2 === 0, index)).deployment).toBe(moved.deployment);
    await sleepUntil(failedAt + 1_600);
    expect(await turn(false, 8)).toEqual({ deployment: home, model: home, attempts: '1' });
  });
});

describe('targets that mix lanes and providers', () => {
  const weatherTool: OpenAI.ChatCompletionTool = {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };
  /** The Qwen3-Coder XML a prompted model answers with. */
  const qwenCall = '<tool_call>\n<function=get_weather>\n<parameter=city>\nLyon\n</parameter>\n</function>\n</tool_call>';

  it('native and prompted, OpenAI-compatible and Ollama: every reply carries the call structured, whole and streamed', async () => {
    const [nativeServer, promptedServer] = [await upstream(), await upstream()];
    nativeServer.respondWith(() => ({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }] }));
    promptedServer.respondWith(() => ({ type: 'chat', content: qwenCall }));
    const [nativeOllama, promptedOllama] = [await startFakeOllamaUpstream(), await startFakeOllamaUpstream()];
    opened.push(nativeOllama, promptedOllama);
    const ollamaReplies = (ollama: typeof nativeOllama, reply: () => Parameters<typeof nativeOllama.enqueue>[0]) => {
      for (let index = 0; index < 40; index++) ollama.enqueue(reply());
    };
    ollamaReplies(nativeOllama, () => ({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }] }));
    ollamaReplies(promptedOllama, () => ({ type: 'chat', content: qwenCall }));
    const ollama = (url: string, toolCalling: string) => testProvider('ollama', url, { toolCalling, retries: { count: 0 } });
    const gateway = await gatewayWith({
      providers: {
        vllm: provider(nativeServer.url),
        llamacpp: provider(promptedServer.url, 10_000, { toolCalling: 'prompted' }),
        'ollama-a': ollama(nativeOllama.url, 'native'),
        'ollama-b': ollama(promptedOllama.url, 'prompted'),
      },
      deployments: {
        coder: {
          targets: [
            { model: 'vllm/qwen3-coder-30b-a3b-instruct' },
            { model: 'llamacpp/qwen3-coder-30b-a3b-instruct' },
            { model: 'ollama-a/qwen3-coder:30b' },
            { model: 'ollama-b/qwen3-coder:30b' },
          ],
        },
      },
    });
    const client = gateway.client();
    const served = new Set<string>();
    for (let index = 0; index < 48; index++) {
      const stream = index % 2 === 1;
      const request = { model: 'coder', messages: [{ role: 'user' as const, content: 'Weather in Lyon?' }], tools: [weatherTool] };
      if (!stream) {
        const { data, response } = await client.chat.completions.create(request).withResponse();
        served.add(`${response.headers.get('x-interlingua-deployment')} ${response.headers.get('x-tool-calling')}`);
        const call = data.choices[0]?.message.tool_calls?.[0];
        expect(data.choices[0]?.finish_reason).toBe('tool_calls');
        expect(call?.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : call).toEqual([
          'get_weather',
          { city: 'Lyon' },
        ]);
        expect(data.choices[0]?.message.content ?? '').not.toContain('<tool_call>');
        continue;
      }
      const { data, response } = await client.chat.completions.create({ ...request, stream: true }).withResponse();
      served.add(`${response.headers.get('x-interlingua-deployment')} ${response.headers.get('x-tool-calling')}`);
      let name = '';
      let argumentsText = '';
      let content = '';
      let finish: string | null | undefined;
      for await (const chunk of data) {
        const delta = chunk.choices[0]?.delta;
        content += delta?.content ?? '';
        for (const call of delta?.tool_calls ?? []) {
          name += call.function?.name ?? '';
          argumentsText += call.function?.arguments ?? '';
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect([name, JSON.parse(argumentsText), finish]).toEqual(['get_weather', { city: 'Lyon' }, 'tool_calls']);
      expect(content).not.toContain('<tool_call>');
    }
    expect([...served].sort()).toEqual([
      'llamacpp/qwen3-coder-30b-a3b-instruct prompted',
      'ollama-a/qwen3-coder:30b native',
      'ollama-b/qwen3-coder:30b prompted',
      'vllm/qwen3-coder-30b-a3b-instruct native',
    ]);
  });
});

describe('a prompted target failing over to a native one of another provider', () => {
  it.each([false, true])('stream %s: the Ollama target answers the call structured, planned for its own lane', async (stream) => {
    const prompted = await upstream();
    prompted.respondWith(() => ({ type: 'http-error', status: 503, message: 'loading model', errorType: 'server_error' }));
    const ollama = await startFakeOllamaUpstream();
    opened.push(ollama);
    ollama.enqueue({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }] });
    const gateway = await gatewayWith({
      providers: {
        llamacpp: provider(prompted.url, 10_000, { toolCalling: 'prompted' }),
        ollama: testProvider('ollama', ollama.url, { toolCalling: 'native', retries: { count: 0 } }),
      },
      deployments: {
        coder: { targets: [{ model: 'llamacpp/qwen3-coder-30b-a3b-instruct', weight: 1e9 }, { model: 'ollama/qwen3-coder:30b' }] },
      },
    });
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      },
    ];
    const request = { model: 'coder', messages: [{ role: 'user' as const, content: 'Weather in Lyon?' }], tools };
    const client = gateway.client();
    let call: { name: string; arguments: string };
    let response: Response;
    if (stream) {
      const opened = await client.chat.completions.create({ ...request, stream: true }).withResponse();
      response = opened.response;
      call = { name: '', arguments: '' };
      for await (const chunk of opened.data)
        for (const piece of chunk.choices[0]?.delta.tool_calls ?? []) {
          call.name += piece.function?.name ?? '';
          call.arguments += piece.function?.arguments ?? '';
        }
    } else {
      const whole = await client.chat.completions.create(request).withResponse();
      response = whole.response;
      const first = whole.data.choices[0]?.message.tool_calls?.[0];
      call = first?.type === 'function' ? first.function : { name: '', arguments: '' };
    }
    expect([call.name, JSON.parse(call.arguments)]).toEqual(['get_weather', { city: 'Lyon' }]);
    expect(response.headers.get('x-interlingua-deployment')).toBe('ollama/qwen3-coder:30b');
    expect(response.headers.get('x-tool-calling')).toBe('native');
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    // The prompted target was sent the tools in its prompt; the native one got them as tools.
    expect(prompted.lastChatBody().tools).toBeUndefined();
    expect((ollama.requests.find((sent) => sent.path === '/api/chat')?.body as { tools?: unknown[] }).tools).toHaveLength(1);
  });
});

describe('/v1/models', () => {
  it('lists each deployment as a model the official client can list and retrieve; a key sees those it may use', async () => {
    const [one, two] = [await upstream(), await upstream()];
    const gateway = await gatewayWith({
      server: {
        apiKeys: [
          { key: 'sk-all-0123456789', name: 'all' },
          { key: 'sk-two-0123456789', name: 'two-only', models: ['two/*'] },
        ],
      },
      providers: { one: provider(one.url), two: provider(two.url) },
      deployments: {
        coder: { targets: [{ model: 'one/m' }, { model: 'two/m' }] },
        onlyOne: { targets: [{ model: 'one/m' }] },
      },
    });
    const all = gateway.client('sk-all-0123456789');
    const listed = (await all.models.list()).data.filter((model) => model.owned_by === 'interlingua').map((model) => model.id);
    expect(listed.sort()).toEqual(['coder', 'onlyOne']);
    const retrieved = await all.models.retrieve('coder');
    expect(retrieved).toMatchObject({ id: 'coder', object: 'model', owned_by: 'interlingua' });
    const limited = gateway.client('sk-two-0123456789');
    const seen = (await limited.models.list()).data.filter((model) => model.owned_by === 'interlingua').map((model) => model.id);
    expect(seen).toEqual(['coder']);
    await expect(limited.models.retrieve('onlyOne')).rejects.toMatchObject({ status: 404 });
  });
});

describe('a fallbackOn that leaves out server failures (fallbacks to other models only on a rate limit, say)', () => {
  // docs/deployments.md: a target that fails as a server does (refused connection, timeout, 5xx) moves the request
  // on to the next target; `fallbackOn` decides what hands it to another model (the name's `fallbacks`) and a 4xx.
  const setup = async () => {
    const [broken, alive, spare] = [await upstream(), await upstream(), await upstream()];
    broken.respondWith(() => ({ type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' }));
    broken.enqueueEmbeddings(...Array.from({ length: 4 }, () => ({ type: 'http-error' as const, status: 503, message: 'overloaded' })));
    const gateway = await gatewayWith({
      providers: {
        dead: provider(`http://127.0.0.1:${await deadPort()}`),
        broken: provider(broken.url),
        alive: provider(alive.url),
        spare: provider(spare.url),
      },
      deployments: {
        coder: { targets: [{ model: 'dead/m', weight: 1e9 }, { model: 'broken/m', weight: 1e6 }, { model: 'alive/m' }] },
        down: { targets: [{ model: 'dead/m', weight: 1e9 }, { model: 'broken/m' }] },
      },
      fallbacks: { down: ['spare/m'] },
      fallbackOn: [429],
    });
    return { gateway, spare };
  };

  it.each([false, true])("stream %s: a refused connection and a 503 move on to the deployment's next target", async (stream) => {
    const { gateway } = await setup();
    const answered = await chat(gateway.client(), stream);
    expect(answered.text).toBe('hello from upstream');
    expect(answered.headers).toEqual({ deployment: 'alive/m', model: 'alive/m', attempts: '3' });
  });

  it("embeddings: a refused connection and a 503 move on to the deployment's next target", async () => {
    const { gateway } = await setup();
    const { response } = await gateway.client().embeddings.create({ model: 'coder', input: 'hello' }).withResponse();
    expect(response.headers.get('x-interlingua-deployment')).toBe('alive/m');
    expect(response.headers.get('x-interlingua-attempts')).toBe('3');
  });

  it("every target failing as a server does: the name's fallback is not tried, fallbackOn not listing it", async () => {
    const { gateway, spare } = await setup();
    const error = await gateway
      .client()
      .chat.completions.create({ model: 'down', messages: [{ role: 'user', content: 'hello' }] })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toMatchObject({ status: 503 });
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-interlingua-attempts')).toBe('2');
    expect(spare.chatRequests()).toHaveLength(0);
  });
});
