/** One log line per request (id, provider, model, lane, status, duration), streams included; never a key or a prompt. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';

const validateConfigFile = compileConfigFileValidator();
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import { testProvider } from '../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
let app: FastifyInstance;
let baseUrl: string;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  const config = normalizeConfig(
    validateConfigFile({
      server: { apiKeys: ['client-key-123'] },
      providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { apiKey: 'sk-upstream-456', toolCalling: 'native' }) },
    }),
    {},
  );
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await buildApp(config, { logger: pino({ level: 'info' }, sink) });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

const headers = { authorization: 'Bearer client-key-123' };

function requestLines(url: string): Record<string, unknown>[] {
  return lines.filter((line) => line.msg === 'request' && line.url === url);
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('request log', () => {
  it('writes exactly one line for a JSON completion, with its fields', async () => {
    upstream.enqueue({ type: 'chat', content: 'ok' });
    const response = await postJson(
      `${baseUrl}/v1/chat/completions?trace=1`,
      { model: 'local/Qwen/Qwen3-8B', messages: [{ role: 'user', content: 'the secret prompt' }] },
      headers,
    );
    expect(response.status).toBe(200);
    await settle();
    const logged = requestLines('/v1/chat/completions');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 30,
      method: 'POST',
      status: 200,
      provider: 'local',
      model: 'Qwen/Qwen3-8B',
      toolCalling: 'native',
      stream: false,
      reqId: response.headers.get('x-request-id'),
      durationMs: expect.any(Number),
    });
  });

  it('writes one line for a stream too, with its outcome', async () => {
    upstream.enqueue({ type: 'chat', content: 'streamed' });
    const before = requestLines('/v1/chat/completions').length;
    await postJson(
      `${baseUrl}/v1/chat/completions`,
      { model: 'local/m', messages: [{ role: 'user', content: 'hi' }], stream: true },
      headers,
    );
    await settle();
    const logged = requestLines('/v1/chat/completions').slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ status: 200, stream: true, outcome: 'completed', provider: 'local' });
  });

  it('logs failures with their status, 5xx as warnings', async () => {
    upstream.enqueue({ type: 'http-error', status: 500, message: 'kaput' });
    const before = requestLines('/v1/chat/completions').length;
    await postJson(`${baseUrl}/v1/chat/completions`, { model: 'local/m', messages: [{ role: 'user', content: 'hi' }] }, headers);
    await postJson(`${baseUrl}/v1/chat/completions`, { model: 'local/m' }, headers);
    await postJson(`${baseUrl}/v1/chat/completions`, { model: 'local/m', messages: [{ role: 'user', content: 'hi' }] });
    await settle();
    const logged = requestLines('/v1/chat/completions').slice(before);
    expect(logged.map((line) => [line.status, line.level])).toEqual([
      [500, 40],
      [400, 30],
      [401, 30],
    ]);
  });

  it('never logs a key or a prompt', () => {
    const all = JSON.stringify(lines);
    expect(all).not.toContain('client-key-123');
    expect(all).not.toContain('sk-upstream-456');
    expect(all).not.toContain('the secret prompt');
  });
});
