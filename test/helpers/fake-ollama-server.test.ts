/** The fake Ollama and LM Studio keep their sources' defaults: capabilities, tools refused or parsed, special tokens stripped. */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from './fake-inference-server.js';
import { lmStudioId, startFakeLmStudioServer } from './fake-lmstudio-server.js';
import { startFakeOllamaServer } from './fake-ollama-server.js';
import { postJson } from './read-sse.js';
import { scriptedModel, scriptedModels } from './scripted-models.js';

const tools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
];
const asked = [{ role: 'user', content: 'Weather in Paris?' }];
const askedInText = [{ role: 'system', content: 'You may call get_weather.' }, ...asked];

let server: FakeInferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: unknown) {
  const response = await postJson(`${server?.url}${path}`, body);
  return { status: response.status, body: JSON.parse(response.text.trim().split('\n').at(-1) ?? '{}') as Record<string, any> };
}

describe('fake Ollama', () => {
  it('answers /api/version, /api/tags and /api/show with each model capabilities', async () => {
    server = await startFakeOllamaServer({ models: scriptedModels });
    expect(await (await fetch(`${server.url}/api/version`)).json()).toEqual({ version: expect.any(String) });
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((model) => model.name)).toContain('qwen3:8b');
    expect((await post('/api/show', { model: 'qwen3:8b' })).body.capabilities).toEqual(['completion', 'tools', 'thinking']);
    expect((await post('/api/show', { model: 'internlm2:7b' })).body.capabilities).toEqual(['completion']);
    // The GGUF's names, whatever the model is called: `details.family` and `model_info` (GetModelInfo).
    expect((await post('/api/show', { model: 'qwen3:8b' })).body).toMatchObject({
      details: { family: 'qwen3' },
      model_info: { 'general.architecture': 'qwen3', 'general.basename': 'Qwen3' },
    });
    expect((await post('/api/show', { model: 'missing:1b' })).status).toBe(404);
  });

  it('refuses tools for a model without the tools capability, on /api/chat and on /v1', async () => {
    server = await startFakeOllamaServer({ models: [scriptedModel('internlm')] });
    const native = await post('/api/chat', { model: 'internlm2:7b', messages: asked, tools, stream: false });
    expect(native).toEqual({ status: 400, body: { error: 'registry.ollama.ai/library/internlm2:7b does not support tools' } });
    const compatible = await post('/v1/chat/completions', { model: 'internlm2:7b', messages: asked, tools });
    expect(compatible.status).toBe(400);
    expect(compatible.body.error.message).toContain('does not support tools');
  });

  it('parses a tools-capable model call natively and splits its thinking', async () => {
    server = await startFakeOllamaServer({ models: [scriptedModel('hermes')] });
    const { body } = await post('/api/chat', { model: 'qwen3:8b', messages: asked, tools, stream: false });
    expect(body.message).toMatchObject({
      thinking: '\nThe user wants the weather in Paris.\n',
      tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
    });
    expect(body.done_reason).toBe('stop');
  });

  it('strips a template-only model special tokens, streamed as NDJSON', async () => {
    server = await startFakeOllamaServer({ models: [scriptedModel('internlm')] });
    const response = await postJson(`${server.url}/api/chat`, { model: 'internlm2:7b', messages: askedInText });
    const lines = response.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { message: { content: string }; done: boolean });
    expect(lines.map((line) => line.message.content).join('')).toBe(
      'I will look up the weather.\n{"name": "get_weather", "parameters": {"city": "Paris"}}',
    );
    expect(lines.at(-1)?.done).toBe(true);
  });

  it('lists its models owned_by "library" on /v1/models', async () => {
    server = await startFakeOllamaServer({ models: [scriptedModel('hermes')] });
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string; owned_by: string }[] };
    expect(models.data).toEqual([expect.objectContaining({ id: 'qwen3:8b', owned_by: 'library' })]);
  });

  describe('a chat longer than the context (4096 tokens, four characters each)', () => {
    const long = 'x'.repeat(4 * 5_000);
    const tooLong = [{ role: 'user', content: long }];
    const oldTurnTooLong = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: long },
      { role: 'assistant', content: 'Noted.' },
      ...asked,
    ];

    it('by default drops the oldest turns, then cuts a last message still too long, and answers', async () => {
      server = await startFakeOllamaServer({ models: [scriptedModel('hermes')] });
      expect((await post('/api/chat', { model: 'qwen3:8b', stream: false, messages: oldTurnTooLong })).status).toBe(200);
      expect((await post('/api/chat', { model: 'qwen3:8b', stream: false, messages: tooLong })).status).toBe(200);
      // The OpenAI-compatible endpoint has no `truncate`: it always truncates.
      expect((await post('/v1/chat/completions', { model: 'qwen3:8b', messages: tooLong, truncate: false })).status).toBe(200);
    });

    it('with truncate: false, passes llama-server refusal on inside its own error text', async () => {
      server = await startFakeOllamaServer({ models: [scriptedModel('hermes')] });
      const refused = await post('/api/chat', { model: 'qwen3:8b', stream: false, truncate: false, messages: oldTurnTooLong });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body.error as string)).toMatchObject({
        error: {
          code: 400,
          type: 'exceed_context_size_error',
          n_ctx: 4096,
          message: expect.stringMatching(/^request \(\d+ tokens\) exceeds the available context size \(4096 tokens\)/),
        },
      });
      // options.num_ctx sets the context.
      expect(
        (await post('/api/chat', { model: 'qwen3:8b', stream: false, truncate: false, messages: tooLong, options: { num_ctx: 8192 } }))
          .status,
      ).toBe(200);
    });

    it('refuses a last message too long by default for a model whose runner cannot shift its context (deepseek2)', async () => {
      server = await startFakeOllamaServer({ models: [scriptedModel('deepseek')] });
      const refused = await post('/api/chat', { model: 'deepseek-v3:671b', stream: false, messages: tooLong });
      expect(refused).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^the prompt is longer than the context length/) },
      });
      expect((await post('/api/chat', { model: 'deepseek-v3:671b', stream: false, messages: oldTurnTooLong })).status).toBe(200);
    });
  });
});

describe('fake LM Studio', () => {
  it('marks tool-trained models with capabilities ["tool_use"] and returns parsed tool_calls whenever tools are sent', async () => {
    server = await startFakeLmStudioServer({ models: [scriptedModel('hermes'), scriptedModel('internlm')] });
    const listing = (await (await fetch(`${server.url}/api/v0/models`)).json()) as { data: { id: string; capabilities?: string[] }[] };
    expect(listing.data.map((model) => model.capabilities)).toEqual([['tool_use'], undefined]);
    const qwen = lmStudioId(scriptedModel('hermes'));
    const parsed = await post('/v1/chat/completions', { model: qwen, messages: asked, tools });
    expect(parsed.body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ function: { name: 'get_weather' } }] },
    });
    const internlm = lmStudioId(scriptedModel('internlm'));
    const text = await post('/v1/chat/completions', { model: internlm, messages: askedInText });
    expect(text.body.choices[0].message.content).toBe(
      'I will look up the weather.\n{"name": "get_weather", "parameters": {"city": "Paris"}}',
    );
  });
});
