/** One error envelope per API, with honest statuses, for errors from anywhere (fastify itself included). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { renderErrorBody } from '../../src/plugins/error-envelope.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let gateway: StartedGateway;

beforeAll(async () => {
  gateway = await startGateway({ server: { bodyLimitBytes: 2048 }, providers: { local: testProvider('openai-compatible', 'http://127.0.0.1:9/v1') } });
});

afterAll(async () => {
  await gateway?.close();
});

describe('renderErrorBody', () => {
  const error = new GatewayError({ status: 502, type: 'upstream_error', code: 'upstream_unavailable', param: null, message: 'down' });

  it('renders OpenAI’s envelope with all four fields', () => {
    expect(renderErrorBody(error, 'openai')).toEqual({ error: { message: 'down', type: 'upstream_error', param: null, code: 'upstream_unavailable' } });
  });

  it('renders Anthropic’s envelope with Anthropic’s type names', () => {
    expect(renderErrorBody(error, 'anthropic')).toEqual({ type: 'error', error: { type: 'api_error', message: 'down' } });
    const notFound = new GatewayError({ status: 404, type: 'invalid_request_error', code: 'model_not_found', message: 'no such model' });
    expect(renderErrorBody(notFound, 'anthropic')).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'no such model' } });
  });
});

describe('errors from fastify itself', () => {
  it('a body over the limit is a 413 in the envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m', messages: [{ role: 'user', content: 'x'.repeat(4096) }] }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'FST_ERR_CTP_BODY_TOO_LARGE' } });
  });

  it('an unknown route is a 404 in OpenAI’s envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v2/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { message: 'Unknown route: POST /v2/chat/completions', type: 'not_found_error', param: null, code: 'not_found' } });
  });

  it('a wrong method on a known path is a 404 in the envelope too', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'not_found_error' } });
  });
});
