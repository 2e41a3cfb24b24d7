/**
 * An upstream that refuses the gateway's own key (401) or its permissions (403) is the gateway failing, not
 * the client's key: a 502 with code `upstream_authentication_failed` in each API's envelope, the provider
 * named and the upstream's words (which quote the key) left out. Retries and `fallbackOn` see the upstream's
 * status as before. The fake answers as OpenAI does (https://platform.openai.com/docs/guides/error-codes:
 * 401 "Incorrect API key provided", 403 "Country, region, or territory not supported").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiReply, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway, type TestConfigFile } from '../helpers/start-gateway.js';

const gatewayKey = 'sk-client-key-0001';
/** OpenAI echoes the key it refused, masked but for its ends (a short one whole). */
const echoedKey = 'sk-up-b***************ey01';

function refusal(model: unknown): FakeOpenAiReply {
  if (model === 'bad-key')
    return {
      type: 'http-error',
      status: 401,
      message: `Incorrect API key provided: ${echoedKey}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      errorType: 'invalid_request_error',
      code: 'invalid_api_key',
    };
  if (model === 'forbidden')
    return {
      type: 'http-error',
      status: 403,
      message: 'Country, region, or territory not supported',
      errorType: 'request_forbidden',
      code: 'unsupported_country_region_territory',
    };
  if (model === 'moderated')
    // OpenRouter's moderation refusal (https://openrouter.ai/docs/api/reference/errors-and-debugging): about the input.
    return {
      type: 'raw',
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({
        error: {
          code: 403,
          message: 'openai/gpt-4o requires moderation on OpenRouter. Your input was flagged for "harassment".',
          metadata: { reasons: ['harassment'], flagged_input: 'hi', provider_name: 'OpenAI', model_slug: 'openai/gpt-4o' },
        },
      }),
    };
  return { type: 'chat', content: 'From the backup.' };
}

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;

function configFile(extra: Partial<TestConfigFile> = {}): TestConfigFile {
  return {
    server: { apiKeys: [gatewayKey] },
    providers: {
      wrong: testProvider('openai-compatible', `${upstream.url}/v1`, {
        apiKey: 'sk-up-bad-key01',
        retries: { count: 2, initialDelayMs: 1 },
      }),
      good: testProvider('openai-compatible', `${upstream.url}/v1`),
    },
    fallbacks: { 'wrong/bad-key': ['good/backup'], 'wrong/forbidden': ['good/backup'] },
    ...extra,
  };
}

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.respondWith((request) => refusal((request.body as { model?: unknown }).model));
  gateway = await startGateway(configFile());
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const user = [{ role: 'user', content: 'hi' }];
const apis = [
  { name: 'Chat Completions', path: '/v1/chat/completions', envelope: 'openai', body: (model: string) => ({ model, messages: user }) },
  { name: 'Responses', path: '/v1/responses', envelope: 'openai', body: (model: string) => ({ model, input: 'hi' }) },
  {
    name: 'Messages',
    path: '/v1/messages',
    envelope: 'anthropic',
    body: (model: string) => ({ model, max_tokens: 16, messages: user }),
  },
] as const;

async function post(baseUrl: string, path: string, body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gatewayKey}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe.each(apis)('$name', (api) => {
  it.each([
    ['bad-key', 401],
    ['forbidden', 403],
  ])('an upstream %s (%i) is a 502 upstream_authentication_failed naming the provider, never the key', async (model, status) => {
    for (const stream of [false, true]) {
      const asked = upstream.chatRequests().length;
      const reply = await post(gateway.baseUrl, api.path, { ...api.body(`wrong/${model}`), stream });
      expect(reply.status).toBe(502);
      const body = JSON.parse(reply.text) as { type?: string; error: { type: string; code?: string; message: string } };
      if (api.envelope === 'openai') expect(body.error).toMatchObject({ type: 'upstream_error', code: 'upstream_authentication_failed' });
      else expect(body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      expect(body.error.message).toContain(`Upstream provider 'wrong'`);
      expect(body.error.message).toContain(`HTTP ${status}`);
      expect(reply.text).not.toContain(echoedKey);
      expect(reply.text).not.toContain('Incorrect API key');
      // Not retried (another try gets the same refusal), nor handed to the fallback: the default fallbackOn lists neither.
      expect(upstream.chatRequests().length).toBe(asked + 1);
    }
  });
});

describe('a 403 about the content', () => {
  it("keeps its meaning: a 403 permission_error in the upstream's words, the client's to change", async () => {
    const reply = await post(gateway.baseUrl, '/v1/chat/completions', { model: 'wrong/moderated', messages: user });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.text)).toMatchObject({
      error: { type: 'permission_error', message: expect.stringContaining('Your input was flagged') },
    });
  });
});

describe('fallbacks', () => {
  it("move on past a refused key when fallbackOn lists its status, as before, and so do a deployment's targets", async () => {
    const listing = await startGateway(
      configFile({
        fallbackOn: [429, '5xx', 'timeout', 'connect', 401, 403],
        // No cooldown: a target that failed is not skipped afterwards, so the refused one keeps its share of the draw.
        deployments: {
          pool: { strategy: 'least-busy', cooldownSeconds: 0, targets: [{ model: 'wrong/bad-key' }, { model: 'good/backup' }] },
        },
      }),
    );
    try {
      for (const model of ['bad-key', 'forbidden']) {
        const reply = await listing
          .client(gatewayKey)
          .chat.completions.create({ model: `wrong/${model}`, messages: [{ role: 'user', content: 'hi' }] });
        expect(reply.choices[0]?.message.content).toBe('From the backup.');
        expect((upstream.lastChatBody() as { model: string }).model).toBe('backup');
      }
      // A deployment's target whose key is refused hands over to the next target the same way.
      // Idle targets tie, and ties are a random draw: ask until the draw has put the refused target first
      // (each request does so half the time; 2^-32 that it never does), every reply coming from the backup.
      const refusedCount = () =>
        upstream.chatRequests().filter((request) => (request.body as { model?: string }).model === 'bad-key').length;
      const refusedBefore = refusedCount();
      for (let request = 0; request < 32 && refusedCount() === refusedBefore; request++) {
        const reply = await listing
          .client(gatewayKey)
          .chat.completions.create({ model: 'pool', messages: [{ role: 'user', content: 'hi' }] });
        expect(reply.choices[0]?.message.content).toBe('From the backup.');
      }
      expect(refusedCount()).toBeGreaterThan(refusedBefore);
    } finally {
      await listing.close();
    }
  });
});
