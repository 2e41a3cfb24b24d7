/**
 * A configured key holding `"` and `\` that an upstream echoes in its error bodies (as JSON, so escaped
 * there): the client's reply (Chat Completions and Messages, whole and streamed) and every log line hold
 * none of its spellings, and every log line is still JSON.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createConfigRedactor, createGatewayLogger } from '../../src/app.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { postJson } from '../helpers/read-sse.js';
import { testProvider } from '../helpers/start-gateway.js';

const validateConfigFile = compileConfigFileValidator();

/** Header values may hold `"` and `\`; this key is made of little else. */
const quotedKey = 'sk-"\\"\\quoted\\"-key';
const clientKey = 'client-"key"\\0123';
const spellings = (secret: string) => [
  secret,
  JSON.stringify(secret).slice(1, -1),
  JSON.stringify(JSON.stringify(secret)).slice(3, -3),
  encodeURIComponent(secret),
];
const allSpellings = [...spellings(quotedKey), ...spellings(clientKey)];

function expectNoSpelling(text: string): void {
  for (const spelling of allSpellings) expect(text).not.toContain(spelling);
}

/** The upstream echoes the credential it got, in a 401 body and in a mid-stream error, JSON-escaped as JSON is. */
function answer(request: { headers: http.IncomingHttpHeaders; body: unknown }, response: http.ServerResponse): void {
  const message = `Invalid credentials: ${String(request.headers.authorization)} (raw body ${JSON.stringify(JSON.stringify(request.headers))})`;
  const model = (request.body as { model?: string } | undefined)?.model;
  if (model !== 'stream-error') {
    response
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(`data: ${JSON.stringify({ id: 'c', model, choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`);
  response.end(`data: ${JSON.stringify({ error: { message } })}\n\n`);
}

let upstream: LoopbackServer;
let app: FastifyInstance;
let baseUrl: string;
const lines: string[] = [];

beforeAll(async () => {
  upstream = await startLoopbackServer(answer);
  const config = normalizeConfig(
    validateConfigFile({
      server: { apiKeys: [clientKey], logLevel: 'debug' },
      providers: { compatible: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native', apiKey: quotedKey }) },
    }),
    { host: '127.0.0.1', port: 0 },
  );
  const redactor = createConfigRedactor(config);
  const logger = createGatewayLogger(config, redactor, { write: (line: string) => void lines.push(line) });
  app = await buildApp(config, { logger, redactor });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

const authorized = { authorization: `Bearer ${clientKey}` };
const chat = (model: string, stream: boolean) => ({ model: `compatible/${model}`, stream, messages: [{ role: 'user', content: 'Hi' }] });
const messages = (model: string, stream: boolean) => ({ ...chat(model, stream), max_tokens: 16 });

describe('a configured key holding quotes and backslashes, echoed by the upstream', () => {
  it.each([
    ['/v1/chat/completions', chat('status-401', false)],
    ['/v1/chat/completions', chat('stream-error', true)],
    ['/v1/messages', messages('status-401', false)],
    ['/v1/messages', messages('stream-error', true)],
  ])('%s: the client reply holds no spelling of it', async (path, body) => {
    const response = await postJson(`${baseUrl}${path}`, body, authorized);
    expect(response.text).toContain('Invalid credentials: Bearer [REDACTED]');
    expectNoSpelling(response.text);
  });

  it('no log line holds any spelling of it, and every line is still JSON', async () => {
    // What the requests above logged, then a line quoting an upstream's raw JSON body (the key escaped twice).
    expect(lines.length).toBeGreaterThan(0);
    expectNoSpelling(lines.join(''));
    app.log.error({ body: JSON.stringify({ error: `echo ${quotedKey}` }) }, `line with ${clientKey}`);
    const written = lines.join('');
    expect(written).toContain('[REDACTED]');
    expectNoSpelling(written);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
