/**
 * A conversation longer than the model's context, refused by the server in its own words (vLLM's
 * "maximum context length is", llama-server's `exceed_context_size_error`, Ollama's "the prompt is longer
 * than the context length", LM Studio's "when context the overflows"): every inbound API says so
 * in its own sign, OpenAI's code `context_length_exceeded` (Chat Completions, Responses) and Anthropic's
 * `prompt is too long: …` (Messages), with the server's 400 and its words kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { lmStudioId, startFakeLmStudioServer } from '../helpers/fake-lmstudio-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { postJson } from '../helpers/read-sse.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';
import { weatherTools } from './weather-request.js';

/** About 50,000 tokens by the fakes' count: more than either server's context. */
const longText = 'All work and no play makes Jack a dull boy. '.repeat(4_500);

let vllm: FakeInferenceServer;
let llama: FakeInferenceServer;
let ollama: FakeInferenceServer;
let lmStudio: FakeInferenceServer;
let gateway: StartedGateway;

beforeAll(async () => {
  vllm = await startFakeVllmServer({ model: scriptedModel('hermes'), toolCallParser: true });
  llama = await startFakeLlamaServer({ model: scriptedModel('hermes') });
  ollama = await startFakeOllamaServer({ models: [scriptedModel('hermes')] });
  lmStudio = await startFakeLmStudioServer({ models: [scriptedModel('hermes')] });
  gateway = await startGateway(
    {
      providers: {
        vllm: { type: 'openai-compatible', baseUrl: `${vllm.url}/v1` },
        llama: { type: 'openai-compatible', baseUrl: `${llama.url}/v1` },
        ollama: { type: 'ollama', baseUrl: ollama.url },
        'ollama-v1': { type: 'openai-compatible', baseUrl: `${ollama.url}/v1` },
        lmstudio: { type: 'openai-compatible', baseUrl: `${lmStudio.url}/v1` },
      },
    },
    { detectServers: true },
  );
  await waitForServerDetection(gateway);
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([vllm?.close(), llama?.close(), ollama?.close(), lmStudio?.close()]);
});

const servers = [
  { label: 'vLLM', model: 'vllm/Qwen/Qwen3-8B', says: 'maximum context length is 32768 tokens' },
  { label: 'llama-server', model: 'llama/Qwen3-8B-Q4_K_M.gguf', says: 'exceeds the available context size (8192 tokens)' },
  // The gateway sends `truncate: false` to /api/chat: Ollama passes llama-server's refusal on.
  { label: 'Ollama', model: `ollama/${scriptedModel('hermes').ollamaName}`, says: 'exceeds the available context size (4096 tokens)' },
  { label: 'LM Studio', model: `lmstudio/${lmStudioId(scriptedModel('hermes'))}`, says: 'context length of only 4096 tokens' },
];

describe.each(servers)('$label refusing a conversation longer than its context', ({ model, says }) => {
  for (const stream of [false, true]) {
    const how = stream ? 'streamed' : 'whole';

    it(`Chat Completions (${how}): 400 with code context_length_exceeded`, async () => {
      const reply = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
        model,
        stream,
        messages: [{ role: 'user', content: longText }],
        tools: weatherTools,
      });
      expect(reply.status).toBe(400);
      const { error } = JSON.parse(reply.text) as { error: { code: string; type: string; message: string } };
      expect(error).toMatchObject({ code: 'context_length_exceeded', type: 'invalid_request_error' });
      expect(error.message).toContain(says);
    });

    it(`Responses (${how}): 400 with code context_length_exceeded`, async () => {
      const reply = await postJson(`${gateway.baseUrl}/v1/responses`, {
        model,
        stream,
        input: longText,
        tools: weatherTools.map((tool) => ({ type: 'function', ...tool.function })),
      });
      expect(reply.status).toBe(400);
      const { error } = JSON.parse(reply.text) as { error: { code: string; message: string } };
      expect(error.code).toBe('context_length_exceeded');
      expect(error.message).toContain(says);
    });

    it(`Messages (${how}): 400 invalid_request_error saying "prompt is too long"`, async () => {
      const reply = await postJson(`${gateway.baseUrl}/v1/messages`, {
        model,
        stream,
        max_tokens: 1_024,
        messages: [{ role: 'user', content: longText }],
        tools: weatherTools.map((tool) => ({ name: tool.function.name, input_schema: tool.function.parameters })),
      });
      expect(reply.status).toBe(400);
      const body = JSON.parse(reply.text) as { type: string; error: { type: string; message: string } };
      expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(body.error.message).toMatch(/^prompt is too long: /);
      expect(body.error.message).toContain(says);
    });
  }
});

describe("Ollama's OpenAI-compatible endpoint", () => {
  // Its request has no `truncate` (openai/openai.go), so Ollama fits the chat as it does by default: the
  // oldest turns dropped, a last message too long cut in its middle (server/prompt.go, llm/llama_server.go).
  // Nothing tells the gateway: the `ollama` provider type is the one that gets the overflow as an error.
  it('answers a conversation longer than the context, truncated without a word', async () => {
    const reply = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: `ollama-v1/${scriptedModel('hermes').ollamaName}`,
      messages: [{ role: 'user', content: longText }],
    });
    expect(reply.status).toBe(200);
  });
});

describe('an overflow a server reports inside a 200', () => {
  // LM Studio 0.4.21 answers a prompt longer than the loaded context with a 200 that carries the error
  // (lmstudio-ai/lmstudio-bug-tracker#2322); Ollama reports a failure after its 200 as an NDJSON
  // `{"error": …}` line (server/routes.go, the streamed handlers' error line).
  const lmStudioWords =
    'The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.';
  const ollamaWords = 'the prompt is longer than the context length currently available to the model; shorten the prompt';
  let openAiLike: FakeOpenAiUpstream;
  let ollamaLike: FakeOllamaUpstream;
  let inBand: StartedGateway;

  beforeAll(async () => {
    openAiLike = await startFakeOpenAiUpstream({ models: ['qwen3-8b'] });
    ollamaLike = await startFakeOllamaUpstream({ models: ['qwen3:8b'] });
    inBand = await startGateway({
      providers: {
        lmstudio: { type: 'openai-compatible', baseUrl: `${openAiLike.url}/v1`, server: 'lmstudio' },
        ollama: { type: 'ollama', baseUrl: ollamaLike.url },
      },
    });
  });

  afterAll(async () => {
    await inBand?.close();
    await Promise.all([openAiLike?.close(), ollamaLike?.close()]);
  });

  const ask = (model: string, stream: boolean) =>
    postJson(`${inBand.baseUrl}/v1/chat/completions`, { model, stream, messages: [{ role: 'user', content: 'Hello' }] });

  it('a whole reply is a 400 with code context_length_exceeded and the server words', async () => {
    openAiLike.enqueue({ type: 'chat', content: 'unused', streamError: { afterChunks: 0, message: lmStudioWords } });
    const reply = await ask('lmstudio/qwen3-8b', false);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toMatchObject({
      error: { code: 'context_length_exceeded', type: 'invalid_request_error', message: lmStudioWords },
    });
  });

  it('a stream ends with an error frame whose code is context_length_exceeded', async () => {
    openAiLike.enqueue({ type: 'chat', content: 'unused', streamError: { afterChunks: 1, message: lmStudioWords } });
    const reply = await ask('lmstudio/qwen3-8b', true);
    const frames = reply.text.split('\n\n').filter((frame) => frame.startsWith('data: {"error"'));
    expect(frames.map((frame) => (JSON.parse(frame.slice('data: '.length)) as { error: { code: string } }).error.code)).toEqual([
      'context_length_exceeded',
    ]);
  });

  it("Ollama's error line after its first chunk is context_length_exceeded too", async () => {
    ollamaLike.enqueue({ type: 'chat', content: 'unused', streamError: { afterChunks: 1, message: ollamaWords } });
    const streamed = await ask('ollama/qwen3:8b', true);
    expect(streamed.text).toContain('"code":"context_length_exceeded"');
  });
});

describe('an overflow a server answers with a 500', () => {
  // ik_llama.cpp's llama-server with context shift off (examples/server/server.cpp, ERROR_TYPE_SERVER) and
  // LM Studio's MLX engine (mlx_engine/model_kit/batched_vision/context_fit.py, answered by
  // mlx_engine/server/http.py as a 500): the prompt will not fit whatever the try, so the client gets the
  // 400 it means and the gateway does not retry it.
  const bodies = [
    {
      server: 'ik_llama.cpp',
      error: { code: 500, message: 'the request exceeds the available context size, try increasing it', type: 'server_error' },
    },
    { server: 'MLX engine', error: { message: 'Prepared prompt has 9,120 tokens, exceeding the fitted 8,192-token context' } },
  ];
  let upstream: FakeOpenAiUpstream;
  let retrying: StartedGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream({ models: ['m'] });
    retrying = await startGateway({
      providers: { local: { type: 'openai-compatible', baseUrl: `${upstream.url}/v1`, retries: { count: 2, initialDelayMs: 1 } } },
    });
  });

  afterAll(async () => {
    await retrying?.close();
    await upstream?.close();
  });

  it.each(bodies)('$server: a 400 context_length_exceeded, asked once', async ({ error }) => {
    const asked = upstream.chatRequests().length;
    upstream.enqueue({ type: 'raw', status: 500, body: JSON.stringify({ error }) });
    const reply = await postJson(`${retrying.baseUrl}/v1/chat/completions`, {
      model: 'local/m',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toMatchObject({
      error: { code: 'context_length_exceeded', type: 'invalid_request_error', message: error.message },
    });
    expect(upstream.chatRequests().length).toBe(asked + 1);
  });
});
