/** llama-server's prompted lane: /apply-template renders, /completion generates with preserved tokens, whole and streamed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { defaultUpstreamLimits } from '../../../src/config/normalize-config.js';
import { cancellationFromSignal } from '../../../src/core/cancellation.js';
import type { ChatRequest } from '../../../src/core/chat-request.js';
import { silentLogger } from '../../../src/core/logger.js';
import { refusalMemories, type RefusalMemories } from '../../../src/core/refusal-memory.js';
import type { ProviderAdapter, ProviderContext } from '../../../src/core/provider-adapter.js';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { createOpenAiAdapter } from '../../../providers/openai/create-openai-adapter.js';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js';

/** The pieces a llama-server would generate; the last object carries the stop and the counters. */
const pieces = ['<|channel|>commentary to=functions.get_weather ', '<|constrain|>json<|message|>', '{"city": "Paris"}', '<|call|>'];
const final = {
  stop: true,
  model: 'gpt-oss-20b',
  stop_type: 'eos',
  stopping_word: '',
  tokens_predicted: 21,
  tokens_evaluated: 88,
  tokens_cached: 108,
  timings: { cache_n: 64, prompt_n: 24, predicted_n: 21 },
};

/**
 * With `n_probs` above 0, each piece's tokens (one piece, one token) in `completion_probabilities`, as
 * probs_vector_to_json (tools/server/server-task.cpp) writes them: id, token, bytes, logprob, and n_probs
 * `top_logprobs`, the chosen token first.
 */
function probabilitiesOf(body: Record<string, unknown>, tokens: string[], first: number): Record<string, unknown> {
  const count = typeof body.n_probs === 'number' ? body.n_probs : 0;
  if (count <= 0) return {};
  const candidate = (token: string, id: number, logprob: number) => ({ id, token, bytes: [...Buffer.from(token, 'utf8')], logprob });
  return {
    completion_probabilities: tokens.map((token, offset) => {
      const logprob = -(first + offset + 1) / 10;
      const top = Array.from({ length: count }, (_, rank) =>
        candidate(rank === 0 ? token : `${token}~${rank}`, 100 + rank, logprob - rank),
      );
      return { ...candidate(token, 100, logprob), top_logprobs: top };
    }),
  };
}

/** A llama-server provider in the prompted lane at `url` (its root; the chat base URL adds `/v1`). */
function llamaAdapter(name: string, url: string, extra: Partial<ProviderConfig> = {}, refusals?: RefusalMemories): ProviderAdapter {
  const config: ProviderConfig = {
    name,
    type: 'openai-compatible',
    baseUrl: `${url}/v1`,
    headers: {},
    timeouts: { connectMs: 1_000, headersMs: 5_000, bodyMs: 5_000 },
    limits: { ...defaultUpstreamLimits },
    toolCalling: 'prompted',
    models: {},
    maxConnections: 1,
    ...extra,
  };
  return createOpenAiAdapter(config, 'openai-compatible', undefined, undefined, refusals);
}

let server: LoopbackServer;
let adapter: ProviderAdapter;

beforeAll(async () => {
  // A small stand-in that answers as tools/server does; the full fake servers live in test/helpers.
  server = await startLoopbackServer((request, response) => {
    const body = request.body as Record<string, unknown>;
    if (request.path === '/apply-template') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ prompt: '<|start|>user<|message|>Weather in Paris?<|end|><|start|>assistant' }));
    } else if (request.path === '/completion' && body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [index, content] of pieces.entries())
        response.write(
          `data: ${JSON.stringify({ index: 0, content, stop: false, id_slot: 0, tokens_predicted: index + 1, tokens_evaluated: 88, ...probabilitiesOf(body, [content], index) })}\n\n`,
        );
      response.end(`data: ${JSON.stringify({ index: 0, content: '', ...final })}\n\n`);
    } else if (request.path === '/completion') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ index: 0, content: pieces.join(''), ...final, ...probabilitiesOf(body, pieces, 0) }));
    } else {
      response.writeHead(404).end();
    }
  });
  adapter = llamaAdapter('llama', server.url, { maxConnections: 4, server: 'llama.cpp' });
});

afterAll(async () => {
  await adapter?.close?.();
  await server?.close();
});

const request: ChatRequest = {
  model: {
    id: 'llama/gpt-oss-20b',
    provider: 'llama',
    providerType: 'openai-compatible',
    model: 'gpt-oss-20b',
    family: 'harmony',
    toolCalling: 'prompted',
    server: 'llama.cpp',
  },
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  ],
  keepSpecialTokens: ['<|channel|>', '<|message|>', '<|constrain|>', '<|call|>'],
  maxOutputTokens: 256,
  temperature: 0,
  topP: 0.9,
  stop: ['<|return|>'],
  seed: 7,
  openaiExtras: { top_k: 40, min_p: 0.05, repetition_penalty: 1.1, chat_template_kwargs: { reasoning_effort: 'low' }, logit_bias: {} },
};

function context(wholeReply: boolean): ProviderContext {
  return { cancellation: cancellationFromSignal(new AbortController().signal), requestId: 'request-1', log: silentLogger, wholeReply };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const text = (events: StreamEvent[]) => events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');

describe.each([
  ['whole', true],
  ['streamed', false],
])('llama-server prompted lane, %s', (_name, whole) => {
  it('renders through /apply-template, then generates from /completion with the preserved tokens', async () => {
    const before = server.requests.length;
    const events = await collect(await adapter.stream(request, context(whole)));
    const [applyTemplate, completion] = server.requests.slice(before);
    expect(applyTemplate).toMatchObject({
      path: '/apply-template',
      body: {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        chat_template_kwargs: { reasoning_effort: 'low' },
      },
    });
    expect(completion?.path).toBe('/completion');
    expect(completion?.body).toEqual({
      model: 'gpt-oss-20b',
      prompt: '<|start|>user<|message|>Weather in Paris?<|end|><|start|>assistant',
      stream: !whole,
      top_k: 40,
      min_p: 0.05,
      repeat_penalty: 1.1,
      n_predict: 256,
      temperature: 0,
      top_p: 0.9,
      stop: ['<|return|>'],
      seed: 7,
      preserved_tokens: ['<|channel|>', '<|message|>', '<|constrain|>', '<|call|>'],
    });
    expect(text(events)).toBe(pieces.join(''));
    expect(events[0]).toMatchObject({
      type: 'response-start',
      model: 'gpt-oss-20b',
      warnings: [{ code: 'unsupported-parameter', message: "'logit_bias' has no llama-server /completion equivalent and was not sent." }],
    });
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      reason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 88, outputTokens: 21, totalTokens: 109, cachedInputTokens: 64, raw: { tokens_cached: 108 } },
    });
  });
});

describe('llama-server prompted lane with the template rendering the tools', () => {
  it('sends the tools and history structurally to /apply-template with tool_choice none', async () => {
    const before = server.requests.length;
    await collect(
      await adapter.stream(
        {
          ...request,
          tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
          toolChoice: { type: 'none' },
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
            { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
            { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', output: 'Sunny' }] },
          ],
        },
        context(true),
      ),
    );
    expect(server.requests[before]?.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      tool_choice: 'none',
      messages: [
        { role: 'user' },
        { role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'get_weather' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
      ],
    });
  });

  it('takes the chat endpoint outside the prompted lane (no keepSpecialTokens)', async () => {
    const before = server.requests.length;
    await adapter.stream({ ...request, keepSpecialTokens: undefined }, context(true)).catch(() => undefined);
    expect(server.requests[before]?.path).toBe('/v1/chat/completions');
  });
});

describe('llama-server /completion stream cut off', () => {
  it('is an error, not a finished reply', async () => {
    const cut = await startLoopbackServer((recorded, response) => {
      if (recorded.path === '/apply-template') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"prompt":"p"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: ${JSON.stringify({ content: 'partial', stop: false })}\n\n`);
    });
    const cutAdapter = llamaAdapter('cut', cut.url);
    try {
      const events = await collect(await cutAdapter.stream(request, context(false)));
      expect(text(events)).toBe('partial');
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'upstream_unavailable' } });
    } finally {
      await cutAdapter.close?.();
      await cut.close();
    }
  });
});

describe('llama-server without /apply-template (an older build, or a proxy that passes /v1 only)', () => {
  it("falls back to the chat endpoint with the gateway's prompt, and asks /apply-template again only once the refusal is forgotten", async () => {
    const old = await startLoopbackServer((recorded, response) => {
      if (recorded.path === '/v1/chat/completions') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-old',
            object: 'chat.completion',
            created: 0,
            model: 'gpt-oss-20b',
            choices: [{ index: 0, message: { role: 'assistant', content: 'from the chat endpoint' }, finish_reason: 'stop' }],
          }),
        );
        return;
      }
      // llama-server's answer to a path it does not serve.
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
    });
    let now = 0;
    const oldAdapter = llamaAdapter('old', old.url, { server: 'llama.cpp' }, refusalMemories({ forgetAfterMs: 60_000, now: () => now }));
    try {
      for (let turn = 0; turn < 2; turn++)
        expect(text(await collect(await oldAdapter.stream(request, context(true))))).toBe('from the chat endpoint');
      expect(old.requests.map((recorded) => recorded.path)).toEqual(['/apply-template', '/v1/chat/completions', '/v1/chat/completions']);
      // Once `server.refusalMemoryMs` has passed the server is asked again (it may have been upgraded since).
      now = 60_000;
      expect(text(await collect(await oldAdapter.stream(request, context(true))))).toBe('from the chat endpoint');
      expect(old.requests.slice(3).map((recorded) => recorded.path)).toEqual(['/apply-template', '/v1/chat/completions']);
    } finally {
      await oldAdapter.close?.();
      await old.close();
    }
  });
});

describe.each([
  ['whole', true],
  ['streamed', false],
])('llama-server prompted lane log probabilities, %s', (_name, whole) => {
  /** The neutral tokens the stand-in sends for the pieces, with the first `top` candidates. */
  const expected = (top: number) =>
    pieces.map((piece, position) => {
      const logprob = -(position + 1) / 10;
      const candidate = (token: string, value: number) => ({ token, logprob: value, bytes: [...Buffer.from(token, 'utf8')] });
      const candidates = [candidate(piece, logprob), candidate(`${piece}~1`, logprob - 1)];
      return { ...candidate(piece, logprob), topLogprobs: candidates.slice(0, top) };
    });
  const tokens = (events: StreamEvent[]) => events.flatMap((event) => (event.type === 'text-delta' ? (event.logprobs ?? []) : []));

  it.each([
    [2, 2],
    [0, 1],
  ])('top_logprobs %i is asked as n_probs %i, and each token comes back with the candidates asked for', async (top, nProbs) => {
    const before = server.requests.length;
    const asked: ChatRequest = { ...request, openaiExtras: { logprobs: true, top_logprobs: top } };
    const events = await collect(await adapter.stream(asked, context(whole)));
    const completion = server.requests.slice(before).find((sent) => sent.path === '/completion');
    expect(completion?.body).toMatchObject({ n_probs: nProbs });
    expect(completion?.body).not.toHaveProperty('logprobs');
    expect(tokens(events)).toEqual(expected(top));
    expect(events[0]).toMatchObject({ type: 'response-start', warnings: [] });
  });

  it('asks for none when the client asked for none', async () => {
    const before = server.requests.length;
    const events = await collect(await adapter.stream({ ...request, openaiExtras: {} }, context(whole)));
    expect(server.requests.slice(before).find((sent) => sent.path === '/completion')?.body).not.toHaveProperty('n_probs');
    expect(tokens(events)).toEqual([]);
  });
});
