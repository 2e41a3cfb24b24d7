/**
 * A configured key holding `"` and `\` that an upstream echoes in its error bodies, as written and inside
 * JSON it quotes: the client's reply (Chat Completions and Messages, whole and streamed) and every log
 * line hold none of its spellings, and every log line is still JSON.
 */
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { postJson } from '../helpers/read-sse.js';
import { testProvider } from '../helpers/start-gateway.js';
import { startLoggedGateway, type LoggedGateway } from '../helpers/start-logged-gateway.js';

/** Header values may hold `"` and `\`; these keys are made of little else. */
const upstreamKey = 'sk-"\\"\\quoted\\"-key';
const clientKey = 'client-"key"\\0123';

/** The secret as is, JSON-escaped up to three times (a reply quoting JSON that quotes JSON), URL-encoded. */
function spellings(secret: string): string[] {
  const escaped = [secret];
  for (let times = 1; times <= 3; times++) escaped.push(JSON.stringify(escaped.at(-1)).slice(1, -1));
  return [...escaped, encodeURIComponent(secret)];
}
const allSpellings = [...spellings(upstreamKey), ...spellings(clientKey)];

function expectNoSpelling(text: string): void {
  for (const spelling of allSpellings) expect(text).not.toContain(spelling);
}

/**
 * The upstream (a proxy in front of another) echoes the credential it got, as is and in the raw body of
 * the server behind it, which quoted the request's headers as JSON: there the key is JSON-escaped twice.
 */
function answer(request: { headers: http.IncomingHttpHeaders; body: unknown }, response: http.ServerResponse): void {
  const behind = JSON.stringify({ error: 'unauthorised', headers: JSON.stringify(request.headers) });
  const message = `Invalid credentials: ${String(request.headers.authorization)} (upstream said: ${behind})`;
  const model = (request.body as { model?: string } | undefined)?.model;
  if (model !== 'stream-error') {
    response
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(`data: ${JSON.stringify({ id: 'c', model, choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`);
  response.end(`data: ${JSON.stringify({ error: { message } })}\n\n`);
}

let upstream: LoopbackServer;
let gateway: LoggedGateway;

beforeAll(async () => {
  upstream = await startLoopbackServer(answer);
  gateway = await startLoggedGateway({
    server: { apiKeys: [clientKey], logLevel: 'debug' },
    providers: { compatible: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native', apiKey: upstreamKey }) },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const authorized = { authorization: `Bearer ${clientKey}` };
const chat = (model: string, stream: boolean) => ({ model: `compatible/${model}`, stream, messages: [{ role: 'user', content: 'Hi' }] });
const messages = (model: string, stream: boolean) => ({ ...chat(model, stream), max_tokens: 16 });

describe('a configured key holding quotes and backslashes, echoed by the upstream', () => {
  it.each([
    ['/v1/chat/completions', chat('status-400', false)],
    ['/v1/chat/completions', chat('stream-error', true)],
    ['/v1/messages', messages('status-400', false)],
    ['/v1/messages', messages('stream-error', true)],
  ])('%s: the client reply holds no spelling of it', async (path, body) => {
    const response = await postJson(`${gateway.baseUrl}${path}`, body, authorized);
    expect(response.text).toContain('Invalid credentials: Bearer [REDACTED]');
    expect(response.text).toContain('authorization');
    expectNoSpelling(response.text);
  });

  it('no log line holds any spelling of it, and every line is still JSON', async () => {
    // What the requests above logged, then a line quoting a proxy's raw body that quotes the one behind it
    // (the key is escaped three times in that line).
    expect(gateway.lines.length).toBeGreaterThan(0);
    const behind = JSON.stringify({ error: `echo ${upstreamKey}` });
    gateway.app.log.error({ body: JSON.stringify({ upstream: behind }) }, `line with ${clientKey}`);
    const written = gateway.lines.join('');
    expect(written).toContain('[REDACTED]');
    expectNoSpelling(written);
    for (const line of gateway.lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
