/** The anthropic adapter's model listing and lifecycle. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/index.js';
import { createAnthropicAdapter } from '../../../providers/anthropic/index.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { startLoopbackServer } from '../../helpers/loopback-server.js';
import { rejectionOf, testConfig, testContext } from './anthropic-test-kit.js';

let upstream: FakeAnthropicUpstream;

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream({
    models: [
      { id: 'claude-sonnet-4-5', created_at: '2025-09-29T00:00:00Z' },
      { id: 'claude-haiku-4-5', created_at: '2025-10-15T00:00:00Z' },
    ],
  });
});
afterAll(async () => {
  await upstream.close();
});

describe('anthropic listModels', () => {
  it('lists ids with creation times in Unix seconds, with auth and version headers', async () => {
    const adapter = createAnthropicAdapter(testConfig(upstream.url));
    const models = await adapter.listModels?.(testContext());
    await adapter.close?.();
    expect(models).toEqual([
      { id: 'claude-sonnet-4-5', created: Date.UTC(2025, 8, 29) / 1000 },
      { id: 'claude-haiku-4-5', created: Date.UTC(2025, 9, 15) / 1000 },
    ]);
    const recorded = upstream.requests.at(-1);
    expect(recorded?.method).toBe('GET');
    expect(recorded?.path.split('?')[0]).toBe('/v1/models');
    expect(recorded?.headers).toMatchObject({ 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' });
  });

  it('follows has_more pages', async () => {
    const server = await startLoopbackServer((request, response) => {
      const after = new URL(request.path, 'http://fake').searchParams.get('after_id');
      const page = after
        ? { data: [{ id: 'model-b', created_at: 'not a date' }], has_more: false, last_id: 'model-b' }
        : { data: [{ id: 'model-a' }], has_more: true, last_id: 'model-a' };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(page));
    });
    const adapter = createAnthropicAdapter(testConfig(server.url));
    const models = await adapter.listModels?.(testContext());
    await adapter.close?.();
    await server.close();
    expect(models).toEqual([{ id: 'model-a' }, { id: 'model-b' }]);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/models?limit=1000', '/v1/models?limit=1000&after_id=model-a']);
  });

  it("maps an auth failure to a 502: the gateway's key was refused, not the client's", async () => {
    const server = await startLoopbackServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    });
    const adapter = createAnthropicAdapter(testConfig(server.url));
    const error = await rejectionOf(adapter.listModels!(testContext()));
    await adapter.close?.();
    await server.close();
    expect(GatewayError.isInstance(error) && [error.status, error.code, error.upstreamStatus]).toEqual([
      502,
      'upstream_authentication_failed',
      401,
    ]);
  });

  it('has no embed', () => {
    expect(createAnthropicAdapter(testConfig(upstream.url)).embed).toBeUndefined();
  });
});
