/** One error envelope per API, with honest statuses, for errors from anywhere (fastify itself included). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAnthropicErrorBody } from '../../routes/messages/anthropic-wire.js';
import { toOpenAiErrorBody } from '../../routes/shared/openai-wire.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { ErrorEnvelopes } from '../../src/plugins/error-envelope.js';
import { rawExchange as rawExchangeOn } from '../helpers/raw-exchange.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let gateway: StartedGateway;

beforeAll(async () => {
  gateway = await startGateway({
    server: { bodyLimitBytes: 2048 },
    providers: { local: testProvider('openai-compatible', 'http://127.0.0.1:9/v1') },
  });
});

afterAll(async () => {
  await gateway?.close();
});

describe('the envelope renderers the route families own', () => {
  const error = new GatewayError({ status: 502, type: 'upstream_error', code: 'upstream_unavailable', param: null, message: 'down' });

  it('renders OpenAI’s envelope with all four fields', () => {
    expect(toOpenAiErrorBody(error)).toEqual({
      error: { message: 'down', type: 'upstream_error', param: null, code: 'upstream_unavailable' },
    });
  });

  it('renders Anthropic’s envelope with Anthropic’s type names', () => {
    expect(toAnthropicErrorBody(error)).toEqual({ type: 'error', error: { type: 'api_error', message: 'down' } });
    const notFound = new GatewayError({ status: 404, type: 'invalid_request_error', code: 'model_not_found', message: 'no such model' });
    expect(toAnthropicErrorBody(notFound)).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'no such model' } });
    const overloaded = new GatewayError({ status: 502, type: 'upstream_error', code: 'overloaded', message: 'busy' });
    expect(toAnthropicErrorBody(overloaded)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } });
  });
});

describe('ErrorEnvelopes', () => {
  it('gives a path the renderer of the route family that claimed it, else the default', () => {
    const envelopes = new ErrorEnvelopes(toOpenAiErrorBody);
    envelopes.claim(/^\/v1\/messages/, toAnthropicErrorBody);
    expect(envelopes.forUrl('/v1/messages/nope')).toBe(toAnthropicErrorBody);
    expect(envelopes.forUrl('/v1/chat/completions')).toBe(toOpenAiErrorBody);
  });
});

describe('errors fastify raises on the Messages routes', () => {
  it('a body over the limit on a Messages route is a 413 in Anthropic’s envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/local/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m', messages: [{ role: 'user', content: 'x'.repeat(4096) }] }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'request_too_large', message: expect.any(String) } });
  });

  it('a wrong method on /v1/messages is a 404 in Anthropic’s envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/messages`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'Unknown route: GET /v1/messages' },
    });
  });

  it('malformed JSON on /v1/messages is a 400 in Anthropic’s envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('Malformed JSON body') },
    });
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
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'request_too_large' },
    });
  });

  it('an unknown route is a 404 in OpenAI’s envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v2/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'Unknown route: POST /v2/chat/completions', type: 'not_found_error', param: null, code: 'not_found' },
    });
  });

  it('a wrong method on a known path is a 404 in the envelope too', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'not_found_error' } });
  });
});

/** Writes raw bytes to the gateway and reads until the server closes the connection. */
const rawExchange = (text: string) => rawExchangeOn(Number(new URL(gateway.baseUrl).port), text);

/** The status and JSON body of a raw HTTP/1.1 response. */
function parseRawResponse(text: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
  return { status, headers: head.toLowerCase(), body: JSON.parse(body) as unknown };
}

describe('errors Node raises before a request exists (clientError)', () => {
  it('answers headers over the size limit with a 431 in OpenAI’s envelope', async () => {
    const response = parseRawResponse(
      await rawExchange(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(response.status).toBe(431);
    expect(response.headers).toContain('content-type: application/json');
    expect(response.body).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'request_header_fields_too_large' },
    });
  });

  it('answers in Anthropic’s envelope when the failed request was for /v1/messages', async () => {
    const response = parseRawResponse(
      await rawExchange(`POST /claude/v1/messages HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(response.status).toBe(431);
    expect(response.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
  });

  it('answers a malformed request with a 400 in the envelope', async () => {
    const response = parseRawResponse(await rawExchange('NOT HTTP AT ALL\r\n\r\n'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        message: expect.stringContaining('not valid HTTP'),
        type: 'invalid_request_error',
        param: null,
        code: 'malformed_http_request',
      },
    });
  });
});

describe('errors fastify raises before routing (frameworkErrors)', () => {
  it('answers a URL it cannot decode with a 400 in the envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/models/%zz`);
    expect(response.status).toBe(400);
    // Before any hook ran, and still named, as every reply is.
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'invalid_url' },
    });
  });

  it('answers a path parameter over the length limit in the envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/${'p'.repeat(200)}/v1/messages`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
  });
});

describe('fastify’s internal codes stay inside', () => {
  it('malformed JSON on an OpenAI route says invalid_json, not FST_ERR_CTP_INVALID_JSON_BODY', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: expect.stringContaining('Malformed JSON body'), type: 'invalid_request_error', param: null, code: 'invalid_json' },
    });
  });
});

describe('bodies are JSON whatever the content type says', () => {
  it.each(['', 'json', ';', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8'])(
    'reads the body with Content-Type %j',
    async (contentType) => {
      const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: '{"messages":[]}',
      });
      // The body was read: the error is about its content, not its media type.
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'model' } });
    },
  );
});
