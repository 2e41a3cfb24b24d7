/** Requests that arrive while the gateway drains its live streams get a 503 in their API's envelope, not fastify's own shape. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startGateway(
    { providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) } },
    { shutdownGraceMs: 1_000 },
  );
});

afterAll(async () => {
  await gateway?.close().catch(() => undefined);
  await upstream?.close();
});

const userTurn = [{ role: 'user', content: 'hi' }];

describe('a request during shutdown', () => {
  it('is a 503 server_shutting_down in OpenAI’s envelope, and in Anthropic’s on /v1/messages', async () => {
    // A live stream keeps the shutdown in its drain, when new requests still arrive.
    upstream.enqueue({ type: 'chat', content: 'never finishing', holdAfterChunks: 2 });
    const live = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m', messages: userTurn, stream: true }),
    });
    expect(live.status).toBe(200);
    const liveBody = live.text().catch(() => '');
    const closed = gateway.close();

    const chat = await postJson(`${gateway.baseUrl}/v1/chat/completions`, { model: 'local/m', messages: userTurn });
    expect(chat.status).toBe(503);
    expect(chat.headers.get('connection')).toBe('close');
    // Named like every other reply: the intake sets the id before it refuses.
    expect(chat.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    expect(JSON.parse(chat.text)).toEqual({
      error: { message: 'The gateway is shutting down.', type: 'server_error', param: null, code: 'server_shutting_down' },
    });

    const messages = await postJson(`${gateway.baseUrl}/v1/messages`, { model: 'local/m', max_tokens: 8, messages: userTurn });
    expect(messages.status).toBe(503);
    expect(JSON.parse(messages.text)).toEqual({ type: 'error', error: { type: 'api_error', message: 'The gateway is shutting down.' } });

    await closed;
    await liveBody;
  });
});
