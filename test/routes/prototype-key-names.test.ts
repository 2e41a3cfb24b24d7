/** Provider and model names spelled like Object.prototype members are unknown models (404), on every route that resolves one. */
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../helpers/gateway-with-openai-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';

const { gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`) },
}));

const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
const user = [{ role: 'user', content: 'hi' }];

/** Each POST API with the body that names `model`, and the envelope its errors come in. */
const apis = [
  { path: 'v1/chat/completions', body: (model: string) => ({ model, messages: user }), envelope: 'openai' },
  { path: 'v1/responses', body: (model: string) => ({ model, input: 'hi' }), envelope: 'openai' },
  { path: 'v1/messages', body: (model: string) => ({ model, max_tokens: 16, messages: user }), envelope: 'anthropic' },
  { path: 'v1/messages/count_tokens', body: (model: string) => ({ model, messages: user }), envelope: 'anthropic' },
] as const;

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gateway.baseUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function expectNotFound(reply: { status: number; body: Record<string, unknown> }, envelope: 'openai' | 'anthropic'): void {
  expect(reply.status).toBe(404);
  if (envelope === 'openai')
    expect(reply.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'model_not_found', param: 'model' } });
  else expect(reply.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
}

describe.each(names)('a provider named %s', (name) => {
  it.each(apis)('is a 404 on POST /$path', async (api) => {
    expectNotFound(await post(api.path, api.body(`${name}/x`)), api.envelope);
  });

  it.each(apis)('is a 404 as a whole model name without a slash on POST /$path', async (api) => {
    expectNotFound(await post(api.path, api.body(name)), api.envelope);
  });

  it.each(apis)('is a 404 on POST /{provider}/$path', async (api) => {
    expectNotFound(await post(`${name}/${api.path}`, api.body('x')), api.envelope);
  });

  it('is a 404 on POST /v1/embeddings', async () => {
    expectNotFound(await post('v1/embeddings', { model: `${name}/x`, input: 'hi' }), 'openai');
  });

  it('is a 404 on GET /v1/models/{id}', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/models/${name}/x`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'model_not_found' } });
  });
});
