/**
 * A conversation longer than the model's context, refused by the server in its own words (vLLM's
 * "maximum context length is", llama-server's `exceed_context_size_error`, Ollama's "the prompt is longer
 * than the context length", LM Studio's "when context the overflows"): every inbound API says so
 * in its own sign, OpenAI's code `context_length_exceeded` (Chat Completions, Responses) and Anthropic's
 * `prompt is too long: …` (Messages), with the server's 400 and its words kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
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
  { label: 'Ollama', model: `ollama/${scriptedModel('hermes').ollamaName}`, says: 'the prompt is longer than the context length' },
  {
    label: "Ollama's /v1",
    model: `ollama-v1/${scriptedModel('hermes').ollamaName}`,
    says: 'the prompt is longer than the context length',
  },
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
