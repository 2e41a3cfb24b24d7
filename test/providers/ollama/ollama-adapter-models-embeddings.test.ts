/** The Ollama adapter's `/api/tags` and `/api/embed` round trips. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, type ProviderAdapter } from '../../../src/core/index.js';
import { createOllamaAdapter } from '../../../providers/ollama/index.js';
import { fakeEmbedding, startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { ollamaConfig, providerContext } from './ollama-test-kit.js';

let upstream: FakeOllamaUpstream;
let adapter: ProviderAdapter;

beforeAll(async () => {
  upstream = await startFakeOllamaUpstream({ models: ['llama3.1:8b', 'qwen3-coder:30b', 'hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M'] });
  adapter = createOllamaAdapter(ollamaConfig(upstream.url, { apiKey: 'secret-key' }));
});

afterAll(async () => {
  await adapter.close?.();
  await upstream.close();
});

afterEach(() => {
  upstream.requests.length = 0;
});

function requireMethod<T>(method: T | undefined): T {
  if (!method) throw new Error('the adapter lacks this method');
  return method;
}

describe('ollama adapter: listModels', () => {
  it('lists model names as ids, with the modification time as created', async () => {
    const models = await requireMethod(adapter.listModels)(providerContext());
    expect(models).toEqual([
      { id: 'llama3.1:8b', created: 1748779200 },
      { id: 'qwen3-coder:30b', created: 1748779200 },
      { id: 'hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M', created: 1748779200 },
    ]);
    expect(upstream.requests[0]).toMatchObject({ method: 'GET', path: '/api/tags' });
    expect(upstream.requests[0]?.headers.authorization).toBe('Bearer secret-key');
  });

  it('rejects with a GatewayError when the upstream fails', async () => {
    upstream.enqueue({ type: 'error', status: 500, message: 'disk on fire' });
    const error = await requireMethod(adapter.listModels)(providerContext()).catch((failure: unknown) => failure);
    expect(GatewayError.isInstance(error) && error.status).toBe(500);
  });

  it('is cancelled by the caller signal even though the package passes none', async () => {
    upstream.enqueue({ type: 'tags', models: ['late:1b'], headersDelayMs: 5000 });
    const controller = new AbortController();
    const pending = requireMethod(adapter.listModels)(providerContext(controller.signal));
    const sent = await upstream.nextRequest();
    controller.abort();
    const error = await pending.catch((failure: unknown) => failure);
    expect(GatewayError.isInstance(error) && error.code).toBe('client_closed_request');
    await upstream.waitForAbort(sent);
  });
});

describe('ollama adapter: embed', () => {
  it('embeds one string', async () => {
    const result = await requireMethod(adapter.embed)({ model: 'nomic-embed-text', input: 'hello' }, providerContext());
    expect(upstream.requests[0]).toMatchObject({ method: 'POST', path: '/api/embed', body: { model: 'nomic-embed-text', input: 'hello' } });
    expect(result).toEqual({ data: [{ index: 0, embedding: fakeEmbedding('hello', 4) }], usage: { promptTokens: 5, totalTokens: 5 } });
  });

  it('embeds several strings with the requested dimensions', async () => {
    const result = await requireMethod(adapter.embed)({ model: 'nomic-embed-text', input: ['a', 'bcd'], dimensions: 2 }, providerContext());
    expect(upstream.requests[0]?.body).toEqual({ model: 'nomic-embed-text', input: ['a', 'bcd'], dimensions: 2 });
    expect(result.data).toEqual([
      { index: 0, embedding: fakeEmbedding('a', 2) },
      { index: 1, embedding: fakeEmbedding('bcd', 2) },
    ]);
  });

  it('encodes base64 as little-endian float32, as OpenAI clients decode it', async () => {
    const result = await requireMethod(adapter.embed)(
      { model: 'nomic-embed-text', input: 'hello', encodingFormat: 'base64' },
      providerContext(),
    );
    const encoded = result.data[0]?.embedding;
    if (typeof encoded !== 'string') throw new Error('expected base64 text');
    const bytes = Buffer.from(encoded, 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
    expect(decoded).toEqual(fakeEmbedding('hello', 4).map((value) => Math.fround(value)));
  });

  it('refuses token-array input with 400, without calling the upstream', async () => {
    const embed = requireMethod(adapter.embed);
    for (const input of [
      [1, 2, 3],
      [[1, 2], [3]],
    ]) {
      const error = await embed({ model: 'nomic-embed-text', input }, providerContext()).catch((failure: unknown) => failure);
      expect(GatewayError.isInstance(error) && error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'input' });
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('keeps 404 for an unknown embedding model', async () => {
    upstream.enqueue({ type: 'error', status: 404, message: 'model "nope" not found, try pulling it first' });
    const error = await requireMethod(adapter.embed)({ model: 'nope', input: 'x' }, providerContext()).catch((failure: unknown) => failure);
    expect(GatewayError.isInstance(error) && error).toMatchObject({ status: 404, message: 'model "nope" not found, try pulling it first' });
  });
});
