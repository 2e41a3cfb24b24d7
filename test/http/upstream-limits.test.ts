/**
 * Upstream replies past their provider's `limits`, for every provider kind, through the gateway: a whole
 * reply, an error body, embeddings and a model list past maxResponseBytes, and one stream event or NDJSON
 * line past maxEventBytes. The client gets a 502 upstream_response_too_large (in-band when its stream
 * had started), the gateway stops reading at once (the upstream sees the connection close long before
 * its 16 MB), and it keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, sseFrames } from '../helpers/read-sse.js';
import { requestKey, startOversizedUpstream, type OversizedUpstream } from '../helpers/oversized-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

const limits = { maxResponseBytes: 64 * 1024, maxEventBytes: 16 * 1024 };
/**
 * Far above the caps, half of what the upstream sends before it stops by itself (16 MiB): a gateway that stopped
 * reading stays under it. Not closer to the caps: what the upstream counts as written includes what the loopback
 * socket's buffers took before the abort landed (a 4 MiB send buffer here, a receive buffer autotuned up to
 * 32 MiB), and a loaded machine delays the abort: a model list reached 4.06 MiB under a full-suite load.
 */
const readAtMost = 8 * 1024 * 1024;

let upstream: OversizedUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  upstream = await startOversizedUpstream();
  gateway = await startGateway({
    providers: {
      compatible: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native', limits }),
      claude: testProvider('anthropic', upstream.url, { apiKey: 'sk-ant-test', defaultMaxTokens: 1024, limits }),
      local: testProvider('ollama', upstream.url, { toolCalling: 'native', limits }),
      gemini: testProvider('gemini', upstream.url, { apiKey: 'gemini-test-key', limits }),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

/** Each kind with the key (see requestKey) of its upstream request for a model, whole and streamed. */
const kinds = [
  { provider: 'compatible', key: (model: string) => `POST /v1/chat/completions ${model}` },
  { provider: 'claude', key: (model: string) => `POST /v1/messages ${model}` },
  { provider: 'local', key: (model: string) => `POST /api/chat ${model}` },
  {
    provider: 'gemini',
    key: (model: string) => `POST /v1beta/models/${model}:${model === 'streamed' ? 'streamGenerateContent' : 'generateContent'}`,
  },
] as const;

/** The upstream request was cut by the gateway: closed before its end, with most of it never sent. */
async function expectStoppedReading(key: string): Promise<void> {
  await upstream.closed(key);
  const recorded = upstream.server.requests.filter((request) => requestKey(request) === key);
  expect(recorded.at(-1)?.aborted).toBe(true);
  expect(upstream.written.get(key)).toBeLessThan(readAtMost);
}

function chat(provider: string, model: string, stream: boolean) {
  return postJson(`${gateway.baseUrl}/v1/chat/completions`, {
    model: `${provider}/${model}`,
    stream,
    messages: [{ role: 'user', content: 'Hello' }],
  });
}

async function expectHealthy(): Promise<void> {
  const health = await fetch(`${gateway.baseUrl}/health`);
  expect(health.status).toBe(200);
}

describe.each(kinds)('a $provider upstream', ({ provider, key }) => {
  it('past maxResponseBytes in a whole reply: a 502 upstream_response_too_large, and the body is not read further', async () => {
    const response = await chat(provider, 'whole', false);
    expect(response.status).toBe(502);
    const body = JSON.parse(response.text) as { error: { code: string; type: string; message: string } };
    expect(body.error.code).toBe('upstream_response_too_large');
    expect(body.error.type).toBe('upstream_error');
    expect(body.error.message).toContain(`providers.${provider}.limits.maxResponseBytes`);
    await expectStoppedReading(key('whole'));
    await expectHealthy();
  });

  it('past maxResponseBytes in an error body: the same 502', async () => {
    const response = await chat(provider, 'error-body', false);
    expect(response.status).toBe(502);
    expect((JSON.parse(response.text) as { error: { code: string } }).error.code).toBe('upstream_response_too_large');
    await expectStoppedReading(key('error-body'));
  });

  it('past maxEventBytes in one stream event or line: the text so far, then one in-band error frame', async () => {
    const response = await chat(provider, 'streamed', true);
    expect(response.status).toBe(200);
    const frames = sseFrames(response.text);
    const last = JSON.parse(frames.at(-1) as string) as { error?: { code: string; message: string } };
    expect(last.error?.code).toBe('upstream_response_too_large');
    expect(last.error?.message).toContain(`providers.${provider}.limits.maxEventBytes`);
    const text = frames
      .slice(0, -1)
      .map((frame) => JSON.parse(frame) as { choices: { delta: { content?: string } }[] })
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .join('');
    expect(text).toBe('Hi');
    await expectStoppedReading(key('streamed'));
    await expectHealthy();
  });
});

describe('bodies read whole besides chat replies', () => {
  it.each(['compatible', 'local'])('embeddings from %s past maxResponseBytes are a 502', async (provider) => {
    const response = await postJson(`${gateway.baseUrl}/v1/embeddings`, { model: `${provider}/embedder`, input: 'text' });
    expect(response.status).toBe(502);
    expect((JSON.parse(response.text) as { error: { code: string } }).error.code).toBe('upstream_response_too_large');
    await expectStoppedReading(provider === 'local' ? 'POST /api/embed embedder' : 'POST /v1/embeddings embedder');
  });

  it('model lists past maxResponseBytes are left out of /v1/models (as any failing list is), and not read further', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/models`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
    await expectStoppedReading('GET /v1/models');
    await expectStoppedReading('GET /api/tags');
  });
});

describe('the stream formats of the other APIs', () => {
  it('a Messages stream ends with an Anthropic error event', async () => {
    const response = await postJson(`${gateway.baseUrl}/v1/messages`, {
      model: 'claude/streamed-messages',
      max_tokens: 100,
      stream: true,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(response.status).toBe(200);
    const blocks = response.text.trim().split('\n\n');
    const last = blocks.at(-1) as string;
    expect(last.startsWith('event: error\n')).toBe(true);
    const payload = JSON.parse(last.split('\ndata: ')[1] as string) as { type: string; error: { type: string; message: string } };
    expect(payload.type).toBe('error');
    expect(payload.error.type).toBe('api_error');
    expect(payload.error.message).toContain('limits.maxEventBytes');
  });

  it('a Responses stream ends with response.failed', async () => {
    const response = await postJson(`${gateway.baseUrl}/v1/responses`, { model: 'local/streamed-responses', stream: true, input: 'Hello' });
    expect(response.status).toBe(200);
    expect(response.text).toContain('event: response.failed');
    expect(response.text).toContain('limits.maxEventBytes');
  });
});
