/**
 * Every status the gateway writes, on Chat Completions and Responses (OpenAI's envelope) and on
 * Messages (Anthropic's), Node's and fastify's own errors included: one table, each row a way an
 * outside client meets that status. (499 is written to the log only: its client is gone.)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { rawExchange } from '../helpers/raw-exchange.js';
import { startGateway, testProvider, type StartedGateway, type TestConfigFile } from '../helpers/start-gateway.js';

const keys = { full: 'sk-full-key-0001', narrow: 'sk-narrow-key-0002', limited: 'sk-limited-key-0003' };

/** By model name: `status-NNN` answers NNN, `slow` answers after the provider's headers timeout, `hold` streams and never ends. */
async function startStatusUpstream(): Promise<LoopbackServer> {
  return startLoopbackServer(async (request, response) => {
    const model = String((request.body as { model?: unknown } | undefined)?.model ?? '');
    const status = /^status-(\d{3})$/.exec(model)?.[1];
    if (status !== undefined) {
      response.writeHead(Number(status), { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `upstream says ${status}`, type: 'invalid_request_error', code: `code_${status}` } }),
      );
      return;
    }
    if (model === 'hold') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })}\n\n`,
      );
      return;
    }
    // `slow`: the gateway gives up first (headersMs); the reply is never sent.
    await new Promise((resolve) => response.on('close', resolve));
  });
}

let upstream: LoopbackServer;
let gateway: StartedGateway;
let file: TestConfigFile;

beforeAll(async () => {
  upstream = await startStatusUpstream();
  const scriptPath = join(mkdtempSync(join(tmpdir(), 'interlingua-status-')), 'script.json');
  writeFileSync(scriptPath, JSON.stringify({ turns: [{ error: { status: 500, message: 'scripted internal failure' } }] }));
  const noRetries = { retries: { count: 0 }, timeouts: { connectMs: 2_000, headersMs: 300, bodyMs: 2_000 } };
  file = {
    server: {
      apiKeys: [keys.full, { key: keys.narrow, models: ['up/allowed-*'] }, { key: keys.limited, limits: { requestsPerMinute: 1 } }],
      bodyLimitBytes: 4096,
      requestTimeoutMs: 1_000,
      headersTimeoutMs: 1_000,
    },
    providers: {
      up: testProvider('openai-compatible', `${upstream.url}/v1`, noRetries),
      down: testProvider('openai-compatible', 'http://127.0.0.1:9/v1', noRetries),
      script: { type: 'scripted', script: scriptPath },
    },
  };
  gateway = await startGateway(file, { shutdownGraceMs: 1_000 });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

type Api = { name: string; path: string; envelope: 'openai' | 'anthropic'; body(model: string): Record<string, unknown> };
const user = [{ role: 'user', content: 'hi' }];
const apis: Api[] = [
  { name: 'Chat Completions', path: '/v1/chat/completions', envelope: 'openai', body: (model) => ({ model, messages: user }) },
  { name: 'Responses', path: '/v1/responses', envelope: 'openai', body: (model) => ({ model, input: 'hi' }) },
  { name: 'Messages', path: '/v1/messages', envelope: 'anthropic', body: (model) => ({ model, max_tokens: 16, messages: user }) },
];

type Reply = { status: number; body: string };

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.full}`, ...headers },
    body,
  });
  return { status: response.status, body: await response.text() };
}

const postModel = (api: Api, model: string, headers: Record<string, string> = {}) =>
  post(`${gateway.baseUrl}${api.path}`, JSON.stringify(api.body(model)), headers);

/** Writes `text`, stops, and reads what the server answers until it closes the connection. */
async function rawReply(text: string): Promise<Reply> {
  const received = await rawExchange(Number(new URL(gateway.baseUrl).port), text);
  const [head = '', body = ''] = received.split('\r\n\r\n', 2);
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]), body };
}

/** A 503: a second gateway draining a live stream, asked while it drains. */
async function duringShutdown(api: Api): Promise<Reply> {
  const draining = await startGateway(file, { shutdownGraceMs: 1_000 });
  const live = await fetch(`${draining.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.full}` },
    body: JSON.stringify({ model: 'up/hold', messages: user, stream: true }),
  });
  const liveBody = live.text().catch(() => '');
  const closed = draining.close();
  const reply = await post(`${draining.baseUrl}${api.path}`, JSON.stringify(api.body('up/m')));
  await closed;
  await liveBody;
  return reply;
}

const rows: { status: number; how: string; send(api: Api): Promise<Reply> }[] = [
  { status: 400, how: 'malformed JSON', send: (api) => post(`${gateway.baseUrl}${api.path}`, '{"model":') },
  { status: 400, how: 'an empty body with Content-Type: application/json', send: (api) => post(`${gateway.baseUrl}${api.path}`, '') },
  {
    status: 400,
    how: 'a malformed header line (Node)',
    send: (api) => rawReply(`POST ${api.path} HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n`),
  },
  { status: 401, how: 'no API key', send: (api) => postModel(api, 'up/m', { authorization: '' }) },
  {
    status: 403,
    how: 'a model outside the key’s policy',
    send: (api) => postModel(api, 'up/other', { authorization: `Bearer ${keys.narrow}` }),
  },
  { status: 404, how: 'an unknown model', send: (api) => postModel(api, 'nowhere/m') },
  { status: 405, how: 'an upstream 405, passed on', send: (api) => postModel(api, 'up/status-405') },
  {
    status: 408,
    how: 'a body that stops mid-way (Node)',
    send: (api) =>
      rawReply(
        `POST ${api.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.full}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mod`,
      ),
  },
  {
    status: 413,
    how: 'a body over the limit (fastify)',
    send: (api) => post(`${gateway.baseUrl}${api.path}`, JSON.stringify(api.body(`up/${'m'.repeat(5000)}`))),
  },
  {
    status: 413,
    how: 'a body over the limit announced with Expect: 100-continue (answered at once, with no 100 Continue first)',
    send: (api) =>
      rawReply(
        `POST ${api.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.full}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n`,
      ),
  },
  { status: 415, how: 'an upstream 415, passed on', send: (api) => postModel(api, 'up/status-415') },
  { status: 422, how: 'an upstream 422, passed on', send: (api) => postModel(api, 'up/status-422') },
  {
    status: 429,
    how: 'the key’s request limit',
    send: async (api) => {
      // The key's one request a minute: whatever this one gets, the next is past the limit.
      await postModel(api, 'up/status-422', { authorization: `Bearer ${keys.limited}` });
      return postModel(api, 'up/status-422', { authorization: `Bearer ${keys.limited}` });
    },
  },
  {
    status: 431,
    how: 'headers over the size limit (Node)',
    send: (api) => rawReply(`POST ${api.path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
  },
  { status: 500, how: 'a provider that fails with a 500 of its own', send: (api) => postModel(api, 'script/m') },
  { status: 502, how: 'an upstream that is not there', send: (api) => postModel(api, 'down/m') },
  { status: 500, how: 'an upstream 500, passed on', send: (api) => postModel(api, 'up/status-500') },
  { status: 503, how: 'a request while the gateway shuts down', send: duringShutdown },
  { status: 504, how: 'an upstream slower than its headers timeout', send: (api) => postModel(api, 'up/slow') },
];

function expectEnvelope(api: Api, body: string): void {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (api.envelope === 'openai') {
    expect(Object.keys(parsed)).toEqual(['error']);
    const error = parsed.error as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(typeof error.message).toBe('string');
    expect(typeof error.type).toBe('string');
  } else {
    expect(parsed.type).toBe('error');
    const error = parsed.error as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['message', 'type']);
    expect(typeof error.message).toBe('string');
  }
}

describe.each(apis)('$name ($envelope envelope)', (api) => {
  it.each(rows)('$status: $how', async (row) => {
    const reply = await row.send(api);
    expect(reply.status).toBe(row.status);
    expectEnvelope(api, reply.body);
  });

  it('still invites a body within the limit with 100 Continue, then answers it', async () => {
    const body = JSON.stringify(api.body('nowhere/m'));
    const received = await rawExchange(
      Number(new URL(gateway.baseUrl).port),
      `POST ${api.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.full}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 404 /);
  });

  it('reads a body as JSON whatever its Content-Type says (no 415 of its own)', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', '', 'json'])
      expect((await postModel(api, 'nowhere/m', { 'content-type': contentType })).status).toBe(404);
  });
});
