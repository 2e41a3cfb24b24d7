/** Client auth (`server.apiKeys`): 401 in the envelope without the right key, Bearer or x-api-key, /health open. */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;
let open: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  const providers = { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) };
  gateway = await startGateway({ server: { apiKeys: ['key-one', 'key-two'] }, providers });
  open = await startGateway({ providers });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), open?.close()]);
  await upstream?.close();
});

const body = { model: 'local/m', messages: [{ role: 'user', content: 'hi' }] };

async function expectUnauthorized(headers: Record<string, string>): Promise<void> {
  const before = upstream.chatRequests().length;
  const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, body, headers);
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer');
  expect(JSON.parse(response.text)).toEqual({
    error: { message: 'Missing or invalid API key.', type: 'authentication_error', param: null, code: 'invalid_api_key' },
  });
  expect(upstream.chatRequests().length).toBe(before);
}

describe('with server.apiKeys configured', () => {
  it('rejects a request without a key', async () => {
    await expectUnauthorized({});
  });

  it.each([
    ['a wrong bearer key', { authorization: 'Bearer key-three' }],
    ['a prefix of a valid key', { authorization: 'Bearer key-on' }],
    ['a valid key with a suffix', { authorization: 'Bearer key-one2' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['a valid key without the Bearer scheme', { authorization: 'key-one' }],
    ['a wrong x-api-key', { 'x-api-key': 'nope' }],
  ])('rejects %s', async (_title, headers) => {
    await expectUnauthorized(headers);
  });

  it.each([
    ['the first key as Bearer', { authorization: 'Bearer key-one' }],
    ['the second key as Bearer', { authorization: 'Bearer key-two' }],
    ['a lower-case scheme', { authorization: 'bearer key-two' }],
    ['x-api-key, as Anthropic clients send it', { 'x-api-key': 'key-one' }],
  ])('accepts %s', async (_title, headers) => {
    upstream.enqueue({ type: 'chat', content: 'ok' });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, body, headers);
    expect(response.status).toBe(200);
  });

  it('never forwards the client key upstream', async () => {
    upstream.enqueue({ type: 'chat', content: 'ok' });
    await postJson(`${gateway.baseUrl}/v1/chat/completions`, body, { authorization: 'Bearer key-one' });
    expect(JSON.stringify(upstream.chatRequests().at(-1)?.headers)).not.toContain('key-one');
  });

  it('guards every API route, not just chat', async () => {
    for (const path of ['/v1/models', '/v1/models/local/m']) {
      const response = await fetch(`${gateway.baseUrl}${path}`);
      expect(response.status, path).toBe(401);
    }
    const embeddings = await postJson(`${gateway.baseUrl}/v1/embeddings`, { model: 'local/e', input: 'x' });
    expect(embeddings.status).toBe(401);
  });

  it('leaves /health and HEAD / open', async () => {
    expect((await fetch(`${gateway.baseUrl}/health`)).status).toBe(200);
    expect((await fetch(`${gateway.baseUrl}/health?verbose=1`)).status).toBe(200);
    expect((await fetch(`${gateway.baseUrl}/`, { method: 'HEAD' })).status).toBe(200);
  });

  it('works with the SDK: AuthenticationError for a wrong key, success for a right one', async () => {
    const error = await gateway
      .client('wrong')
      .chat.completions.create({ model: 'local/m', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    upstream.enqueue({ type: 'chat', content: 'welcome' });
    const completion = await gateway
      .client('key-two')
      .chat.completions.create({ model: 'local/m', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBe('welcome');
  });
});

describe('without server.apiKeys', () => {
  it('is open to any key or none', async () => {
    upstream.enqueue({ type: 'chat', content: 'ok' }, { type: 'chat', content: 'ok' });
    expect((await postJson(`${open.baseUrl}/v1/chat/completions`, body)).status).toBe(200);
    expect((await postJson(`${open.baseUrl}/v1/chat/completions`, body, { authorization: 'Bearer anything' })).status).toBe(200);
  });
});
