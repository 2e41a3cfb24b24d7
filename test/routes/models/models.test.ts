/** GET /v1/models (every provider's models as provider/model, surviving one provider's failure) and GET /v1/models/{id}. */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let openai: FakeOpenAiUpstream;
let anthropic: FakeAnthropicUpstream;
let ollama: FakeOllamaUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  [openai, anthropic, ollama] = await Promise.all([
    startFakeOpenAiUpstream({ models: ['Qwen/Qwen3-8B', 'text-embed-small'] }),
    startFakeAnthropicUpstream({ models: [{ id: 'claude-sonnet-4-5', created_at: '2025-09-29T00:00:00Z' }] }),
    startFakeOllamaUpstream({ models: ['llama3.1:8b', 'qwen3:8b'] }),
  ]);
  gateway = await startGateway({
    providers: {
      local: testProvider('openai-compatible', `${openai.url}/v1`, { models: { 'my-finetune': { family: 'hermes' } } }),
      claude: testProvider('anthropic', anthropic.url, { apiKey: 'k' }),
      home: testProvider('ollama', ollama.url),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openai?.close(), anthropic?.close(), ollama?.close()]);
});

type ModelList = { object: string; data: { id: string; object: string; created: number; owned_by: string }[] };

async function listModels(): Promise<ModelList> {
  const response = await fetch(`${gateway.baseUrl}/v1/models`);
  expect(response.status).toBe(200);
  return (await response.json()) as ModelList;
}

describe('GET /v1/models', () => {
  it('aggregates every provider, ids prefixed with the provider name, configured models included', async () => {
    const list = await listModels();
    expect(list.object).toBe('list');
    expect(list.data.map((model) => model.id).sort()).toEqual(
      [
        'claude/claude-sonnet-4-5',
        'home/llama3.1:8b',
        'home/qwen3:8b',
        'local/Qwen/Qwen3-8B',
        'local/my-finetune',
        'local/text-embed-small',
      ].sort(),
    );
    for (const model of list.data) {
      expect(model.object).toBe('model');
      expect(Number.isInteger(model.created)).toBe(true);
      expect(typeof model.owned_by).toBe('string');
    }
    expect(list.data.find((model) => model.id === 'claude/claude-sonnet-4-5')?.created).toBe(Date.parse('2025-09-29T00:00:00Z') / 1000);
  });

  it('survives one provider failing to list, keeping its configured models', async () => {
    openai.enqueueModels({ type: 'http-error', status: 500, message: 'listing is down' });
    const ids = (await listModels()).data.map((model) => model.id);
    expect(ids).toContain('claude/claude-sonnet-4-5');
    expect(ids).toContain('home/llama3.1:8b');
    expect(ids).toContain('local/my-finetune');
    expect(ids).not.toContain('local/Qwen/Qwen3-8B');
  });

  it('survives a provider answering garbage', async () => {
    openai.enqueueModels({ type: 'raw', status: 200, contentType: 'application/json', body: '{"object":"list","data":' });
    const ids = (await listModels()).data.map((model) => model.id);
    expect(ids).toContain('home/qwen3:8b');
  });

  it('works through the SDK', async () => {
    const ids: string[] = [];
    for await (const model of gateway.client().models.list()) ids.push(model.id);
    expect(ids).toContain('home/qwen3:8b');
    expect(ids).toContain('local/Qwen/Qwen3-8B');
  });
});

describe('GET /v1/models/{provider/model}', () => {
  it('returns one model, slashes in the model id included', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/models/local/Qwen/Qwen3-8B`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'local/Qwen/Qwen3-8B', object: 'model', owned_by: 'fake-org' });
  });

  it('accepts the percent-encoded id the SDK sends', async () => {
    const model = await gateway.client().models.retrieve('home/llama3.1:8b');
    expect(model).toMatchObject({ id: 'home/llama3.1:8b', object: 'model' });
  });

  it('is a 404 model_not_found for a model the provider does not have', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/models/home/missing:1b`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'model_not_found', param: 'model' } });
  });

  it('is a 404 listing the providers for an unknown provider', async () => {
    const error = await gateway
      .client()
      .models.retrieve('elsewhere/x')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toContain('local, claude, home');
  });
});
