/**
 * Configured secrets never leave the process: an upstream of every kind echoes the credential it was
 * sent in its 400 and 500 bodies (a 401's words are never passed on: test/routes/upstream-credentials-refused.test.ts), its model list and embeddings errors, and its mid-stream errors; the
 * client's message has `[REDACTED]` in its place, and no log line (every level, captured from the
 * gateway's own logger) holds any configured secret.
 */
import type http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from '../helpers/loopback-server.js';
import { postJson } from '../helpers/read-sse.js';
import { testProvider } from '../helpers/start-gateway.js';
import { startLoggedGateway } from '../helpers/start-logged-gateway.js';

const secrets = {
  compatibleKey: 'sk-compatible-secret-0123456789',
  organisationHeader: 'org-secret-abcdefgh',
  anthropicKey: 'sk-ant-secret-0123456789',
  ollamaKey: 'ollama-secret-0123456789',
  geminiKey: 'AIza-gemini-secret-0123456789',
  clientKey: 'client-key-0123456789',
};
const allSecrets = Object.values(secrets);

/** What the upstream echoes: the credential headers it received, as some real servers do in their errors. */
function echoed(request: RecordedRequest): string {
  const { authorization, 'x-api-key': apiKey, 'x-goog-api-key': googleKey, 'x-org': organisation } = request.headers;
  return [authorization, apiKey, googleKey, organisation].filter(Boolean).join(' / ');
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** 400 (any other model) and 500 by model name; `stream-error` fails after a first chunk, in the path's own stream format. */
function answer(request: RecordedRequest, response: http.ServerResponse): void {
  const path = request.path.split('?')[0];
  // Gemini names the model in the path (`/v1beta/models/{model}:generateContent`).
  const gemini = /^\/v1beta\/models\/([^:]+):/.exec(path ?? '');
  const model = gemini?.[1] ?? (request.body as { model?: string } | undefined)?.model ?? '';
  const message = `Invalid credentials: ${echoed(request)}`;
  const anthropic = path === '/v1/messages';
  const ollama = path?.startsWith('/api/') === true;
  const errorBody = anthropic
    ? { type: 'error', error: { type: 'invalid_request_error', message } }
    : ollama
      ? { error: message }
      : gemini
        ? { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }
        : { error: { message, type: 'invalid_request_error' } };
  // Some servers echo the credential in a header too (a debugging aid); it must not reach the client either.
  response.setHeader('x-echoed-credentials', echoed(request));
  if (model !== 'stream-error') return sendJson(response, model === 'status-500' ? 500 : 400, errorBody);
  if (gemini) {
    const first = { candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }] };
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(`data: ${JSON.stringify(first)}\r\n\r\n`);
    response.end(`data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } })}\r\n\r\n`);
    return;
  }
  if (path === '/v1/chat/completions') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(
      `data: ${JSON.stringify({ id: 'c', model, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })}\n\n`,
    );
    response.end(`data: ${JSON.stringify({ error: { message } })}\n\n`);
    return;
  }
  if (anthropic) {
    const start = {
      type: 'message_start',
      message: { id: 'm', type: 'message', role: 'assistant', model, content: [], usage: { input_tokens: 1, output_tokens: 0 } },
    };
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(`event: message_start\ndata: ${JSON.stringify(start)}\n\n`);
    response.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`);
    return;
  }
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  response.write(
    `${JSON.stringify({ model, created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hi' }, done: false })}\n`,
  );
  response.end(`${JSON.stringify({ error: message })}\n`);
}

let upstream: LoopbackServer;
let app: FastifyInstance;
let baseUrl: string;
let lines: string[];

beforeAll(async () => {
  upstream = await startLoopbackServer(answer);
  const gateway = await startLoggedGateway({
    server: { apiKeys: [secrets.clientKey], logLevel: 'debug' },
    providers: {
      compatible: testProvider('openai-compatible', `${upstream.url}/v1`, {
        toolCalling: 'native',
        apiKey: secrets.compatibleKey,
        headers: { 'x-org': secrets.organisationHeader, 'x-short': 'abc123' },
      }),
      claude: testProvider('anthropic', upstream.url, { apiKey: secrets.anthropicKey, defaultMaxTokens: 256 }),
      local: testProvider('ollama', upstream.url, { toolCalling: 'native', apiKey: secrets.ollamaKey }),
      gemini: testProvider('gemini', upstream.url, { apiKey: secrets.geminiKey }),
    },
  });
  ({ app, baseUrl, lines } = gateway);
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

const authorized = { authorization: `Bearer ${secrets.clientKey}` };

function expectRedacted(text: string): void {
  for (const secret of allSecrets) expect(text).not.toContain(secret);
  expect(text).toContain('[REDACTED]');
}

const kinds = [
  { provider: 'compatible', credential: `Bearer [REDACTED] / [REDACTED]` },
  { provider: 'claude', credential: '[REDACTED]' },
  { provider: 'local', credential: 'Bearer [REDACTED]' },
  { provider: 'gemini', credential: '[REDACTED]' },
] as const;

describe.each(kinds)('an upstream ($provider) that echoes its credentials', ({ provider, credential }) => {
  it.each(['status-400', 'status-500'])('in a %s error body: the client message is redacted', async (model) => {
    const response = await postJson(
      `${baseUrl}/v1/chat/completions`,
      { model: `${provider}/${model}`, messages: [{ role: 'user', content: 'Hi' }] },
      authorized,
    );
    expect(response.status).toBe(model === 'status-400' ? 400 : 500);
    expectRedacted(response.text);
    expect(JSON.stringify([...response.headers])).not.toContain('secret');
    expect(response.text).toContain(`Invalid credentials: ${credential}`);
  });

  it('in a mid-stream error: the in-band error frame is redacted', async () => {
    const response = await postJson(
      `${baseUrl}/v1/chat/completions`,
      { model: `${provider}/stream-error`, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
      authorized,
    );
    expect(response.status).toBe(200);
    expect(response.text).toContain('"error"');
    expectRedacted(response.text);
  });
});

describe('other routes and APIs', () => {
  it('redacts a Messages error in the Anthropic envelope, and its in-band error event', async () => {
    const whole = await postJson(
      `${baseUrl}/v1/messages`,
      { model: 'claude/status-400', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
      authorized,
    );
    expect(JSON.parse(whole.text).type).toBe('error');
    expectRedacted(whole.text);
    const streamed = await postJson(
      `${baseUrl}/v1/messages`,
      { model: 'claude/stream-error', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
      authorized,
    );
    expect(streamed.text).toContain('event: error');
    expectRedacted(streamed.text);
  });

  it.each(['compatible', 'local'])('redacts an embeddings error from %s', async (provider) => {
    const response = await postJson(`${baseUrl}/v1/embeddings`, { model: `${provider}/status-400`, input: 'x' }, authorized);
    expect(response.status).toBe(400);
    expectRedacted(response.text);
  });

  it('keeps a configured value shorter than 8 characters (not redacted, as documented)', async () => {
    const response = await postJson(
      `${baseUrl}/v1/chat/completions`,
      { model: 'compatible/status-400', messages: [{ role: 'user', content: 'Hi' }] },
      authorized,
    );
    expect(response.text).not.toContain('abc123'); // not echoed by the upstream at all: x-short is not a credential header here
    app.log.info({ note: 'short value abc123' }, 'short');
    expect(lines.some((line) => line.includes('short value abc123'))).toBe(true);
  });
});

describe('the log', () => {
  it('redacts every configured secret from every line at every level, whatever field holds it', async () => {
    await fetch(`${baseUrl}/v1/models`, { headers: authorized });
    app.log.debug({ header: `Bearer ${secrets.compatibleKey}` }, 'debug line');
    app.log.error({ err: new Error(`failed with ${secrets.anthropicKey}`) }, `error line with ${secrets.clientKey}`);
    app.log.warn({ nested: { value: `"${secrets.organisationHeader}"` } }, 'warn line');
    app.log.child({ reqId: 'req_child' }).info(`child line ${secrets.ollamaKey}`);
    const written = lines.join('');
    for (const secret of allSecrets) expect(written).not.toContain(secret);
    for (const message of ['debug line', 'error line', 'warn line', 'child line']) {
      const line = lines.find((candidate) => candidate.includes(message)) as string;
      expect(line).toContain('[REDACTED]');
      expect(() => JSON.parse(line)).not.toThrow();
    }
    // The failed requests above were logged too (500s with their error), and redacted.
    expect(lines.filter((line) => line.includes('Invalid credentials')).length).toBeGreaterThan(0);
    for (const line of lines.filter((candidate) => candidate.includes('Invalid credentials'))) expect(line).toContain('[REDACTED]');
  });
});
