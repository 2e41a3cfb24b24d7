/**
 * `metrics.token`: a bearer token that scrapes GET /metrics and does nothing else, with client keys and
 * without them, compared like a key and never written to a log line.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ConfigError } from '../../src/config/config-error.js';
import { configuredSecrets } from '../../src/config/configured-secrets.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';

const validateConfigFile = compileConfigFileValidator();
const token = 'scrape-only-token-0123456789';
const teamKey = 'sk-team-0123456789';

let upstream: FakeOpenAiUpstream;
/** Every line both gateways logged, at the most detailed level and without the redactor (server.ts adds one). */
const written: string[] = [];

async function startWith(file: Record<string, unknown>): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const config = normalizeConfig(validateConfigFile(file), {});
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  const app = await buildApp(config, { logger: pino({ level: 'trace' }, sink), detectServers: false, environment: {} });
  return { app, baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

let withKeys: { app: FastifyInstance; baseUrl: string };
let withoutKeys: { app: FastifyInstance; baseUrl: string };

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  const providers = { local: testProvider('openai-compatible', `${upstream.url}/v1`) };
  withKeys = await startWith({ server: { apiKeys: [{ key: teamKey, name: 'team' }] }, metrics: { token }, providers });
  withoutKeys = await startWith({ metrics: { token }, providers });
});

afterAll(async () => {
  await Promise.all([withKeys?.app.close(), withoutKeys?.app.close()]);
  await upstream?.close();
});

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

describe('metrics.token', () => {
  it('scrapes /metrics with client keys configured, where a team key gets 403 and no key 401', async () => {
    const scraped = await fetch(`${withKeys.baseUrl}/metrics`, { headers: bearer(token) });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('interlingua_requests_total');
    expect((await fetch(`${withKeys.baseUrl}/metrics`, { headers: bearer(teamKey) })).status).toBe(403);
    expect((await fetch(`${withKeys.baseUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${withKeys.baseUrl}/metrics`, { headers: bearer(`${token}x`) })).status).toBe(401);
  });

  it('is no client key: a generation or a model listing with it is a 401', async () => {
    const chat = await fetch(`${withKeys.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(401);
    expect(((await chat.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect((await fetch(`${withKeys.baseUrl}/v1/models`, { headers: bearer(token) })).status).toBe(401);
  });

  it('without client keys, is the only way into /metrics (other routes stay open)', async () => {
    expect((await fetch(`${withoutKeys.baseUrl}/metrics`, { headers: bearer(token) })).status).toBe(200);
    const refused = await fetch(`${withoutKeys.baseUrl}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect((await fetch(`${withoutKeys.baseUrl}/v1/models`)).status).toBe(200);
  });

  it('appears in no log line, even at trace level without the redactor', () => {
    expect(written.length).toBeGreaterThan(0);
    for (const line of written) expect(line).not.toContain(token);
  });

  it('is a configured secret (redacted should anything echo it)', () => {
    const config = normalizeConfig(validateConfigFile({ metrics: { token }, providers: {} }), {});
    expect(configuredSecrets(config)).toContain(token);
  });

  it('is refused when shorter than 16 characters or equal to a client key', () => {
    expect(() => validateConfigFile({ metrics: { token: 'short' }, providers: {} })).toThrow(/metrics/);
    const same = () =>
      normalizeConfig(validateConfigFile({ server: { apiKeys: [{ key: token, name: 'team' }] }, metrics: { token }, providers: {} }), {});
    expect(same).toThrow(ConfigError);
    expect(same).toThrow(/client key 'team'/);
    expect(same).not.toThrow(new RegExp(token));
  });
});
