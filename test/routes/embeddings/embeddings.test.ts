/** POST /v1/embeddings: passed to openai-compatible and ollama upstreams, a clear 400 for anthropic. */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { fakeEmbedding, startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { fakeOpenAiEmbedding, startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { postJson } from '../../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let openai: FakeOpenAiUpstream;
let anthropic: FakeAnthropicUpstream;
let ollama: FakeOllamaUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  [openai, anthropic, ollama] = await Promise.all([startFakeOpenAiUpstream(), startFakeAnthropicUpstream(), startFakeOllamaUpstream()]);
  gateway = await startGateway({
    providers: {
      local: testProvider('openai-compatible', `${openai.url}/v1`, { apiKey: 'sk-upstream' }),
      claude: testProvider('anthropic', anthropic.url, { apiKey: 'k' }),
      home: testProvider('ollama', ollama.url),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openai?.close(), anthropic?.close(), ollama?.close()]);
});

function lastEmbeddingRequest(requests: { path: string; body: unknown }[], path: string): Record<string, unknown> {
  const request = requests.filter((candidate) => candidate.path === path).at(-1);
  if (!request) throw new Error(`no request to ${path}`);
  return request.body as Record<string, unknown>;
}

describe('POST /v1/embeddings', () => {
  it('passes float requests to an openai-compatible upstream, model without its prefix', async () => {
    const response = await postJson(`${gateway.baseUrl}/v1/embeddings`, {
      model: 'local/BAAI/bge-m3',
      input: ['one', 'three'],
      encoding_format: 'float',
      dimensions: 3,
      user: 'u-1',
    });
    expect(response.status).toBe(200);
    expect(lastEmbeddingRequest(openai.requests, '/v1/embeddings')).toEqual({
      model: 'BAAI/bge-m3',
      input: ['one', 'three'],
      encoding_format: 'float',
      dimensions: 3,
      user: 'u-1',
    });
    expect(JSON.parse(response.text)).toEqual({
      object: 'list',
      model: 'local/BAAI/bge-m3',
      data: [
        { object: 'embedding', index: 0, embedding: fakeOpenAiEmbedding('one', 3) },
        { object: 'embedding', index: 1, embedding: fakeOpenAiEmbedding('three', 3) },
      ],
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
  });

  it('round-trips the SDK default (base64) through an openai-compatible upstream', async () => {
    const result = await gateway.client().embeddings.create({ model: 'local/BAAI/bge-m3', input: 'hello' });
    expect(lastEmbeddingRequest(openai.requests, '/v1/embeddings').encoding_format).toBe('base64');
    expect(result.data[0]?.embedding).toEqual(fakeOpenAiEmbedding('hello', 3));
    expect(result.model).toBe('local/BAAI/bge-m3');
  });

  it('passes requests to ollama /api/embed and answers in OpenAI shape (SDK, base64)', async () => {
    const result = await gateway.client().embeddings.create({ model: 'home/nomic-embed-text', input: ['ab', 'abcd'], dimensions: 4 });
    expect(lastEmbeddingRequest(ollama.requests, '/api/embed')).toMatchObject({
      model: 'nomic-embed-text',
      input: ['ab', 'abcd'],
      dimensions: 4,
    });
    expect(result.data.map((item) => item.embedding)).toEqual([fakeEmbedding('ab', 4), fakeEmbedding('abcd', 4)]);
    expect(result.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
  });

  it('is a clear 400 for anthropic, which has no embeddings', async () => {
    const error = await gateway
      .client()
      .embeddings.create({ model: 'claude/claude-sonnet-4-5', input: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const badRequest = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(badRequest.code).toBe('embeddings_unsupported');
    expect(badRequest.param).toBe('model');
    expect(badRequest.message).toContain("'claude'");
    expect(anthropic.requests).toHaveLength(0);
  });

  it.each([
    { title: 'missing input', body: { model: 'local/e' }, param: 'input' },
    { title: 'an empty input array', body: { model: 'local/e', input: [] }, param: 'input' },
    { title: 'a bad encoding_format', body: { model: 'local/e', input: 'x', encoding_format: 'hex' }, param: 'encoding_format' },
  ])('$title is a 400 naming the field', async ({ body, param }) => {
    const response = await postJson(`${gateway.baseUrl}/v1/embeddings`, body);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ error: { type: 'invalid_request_error', param } });
  });

  it('is a 404 for an unknown provider', async () => {
    const response = await postJson(`${gateway.baseUrl}/v1/embeddings`, { model: 'nowhere/e', input: 'x' });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('keeps an upstream 4xx status and message', async () => {
    const response = await postJson(`${gateway.baseUrl}/v1/embeddings`, { model: 'home/llama3.1:8b', input: [[1, 2, 3]] });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ error: { param: 'input' } });
  });
});
