/** Opt-in CORS: preflights answered before client keys, allowed origins echoed, the gateway's headers exposed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

const allowed = 'https://app.example.com';
let withCors: StartedGateway;
let withoutCors: StartedGateway;

beforeAll(async () => {
  const providers = { local: testProvider('openai-compatible', 'http://127.0.0.1:9/v1') };
  [withCors, withoutCors] = await Promise.all([
    startGateway({ server: { apiKeys: ['sk-gateway-key-1'], cors: { origins: [allowed] } }, providers }),
    startGateway({ server: { apiKeys: ['sk-gateway-key-1'] }, providers }),
  ]);
});

afterAll(async () => {
  await Promise.all([withCors?.close(), withoutCors?.close()]);
});

function preflight(baseUrl: string, origin: string, path = '/v1/chat/completions'): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, anthropic-version, x-api-key',
    },
  });
}

describe('server.cors', () => {
  it('answers a preflight from an allowed origin with a 204 and the headers the SDKs send, without a key', async () => {
    const response = await preflight(withCors.baseUrl, allowed, '/v1/messages');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const allowedHeaders = response.headers.get('access-control-allow-headers')?.split(', ') ?? [];
    for (const header of ['authorization', 'content-type', 'x-api-key', 'anthropic-version', 'anthropic-beta', 'openai-beta'])
      expect(allowedHeaders).toContain(header);
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('lets a script read the gateway’s headers on an allowed origin’s request, errors included', async () => {
    const response = await fetch(`${withCors.baseUrl}/v1/models`, { headers: { origin: allowed, authorization: 'Bearer wrong' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(response.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining-requests');
    expect(response.headers.get('vary')).toContain('origin');
  });

  it('gives another origin no CORS headers (its preflight falls through to the usual 404)', async () => {
    const response = await preflight(withCors.baseUrl, 'https://evil.example.net');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.status).not.toBe(204);
  });

  it('is off unless configured', async () => {
    const response = await preflight(withoutCors.baseUrl, allowed);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.status).not.toBe(204);
  });

  it('refuses an origin with a path at load', async () => {
    const validate = compileConfigFileValidator();
    expect(() => validate({ server: { cors: { origins: ['https://app.example.com/page'] } }, providers: {} })).toThrow(
      /server\.cors\.origins/,
    );
    expect(() => validate({ server: { cors: { origins: ['*', 'http://localhost:3000'] } }, providers: {} })).not.toThrow();
  });
});
