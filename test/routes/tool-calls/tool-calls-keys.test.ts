/**
 * The inspector's routes behind client keys: 401 without a key; a key's model policy applies to the model
 * it inspects; recent replies are recorded for all three APIs, streamed or not, and a key sees only its own,
 * with the provider key an upstream echoed redacted.
 */
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../../helpers/gateway-with-openai-upstream.js';
import { testProvider } from '../../helpers/start-gateway.js';

const aliceKey = 'sk-client-alice-0001';
const bobKey = 'sk-client-bob-0002';
const providerKey = 'sk-upstream-provider-secret-42';
const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  server: {
    apiKeys: [
      { key: aliceKey, name: 'alice', models: ['local/*'] },
      { key: bobKey, name: 'bob', models: ['other/*'] },
    ],
  },
  providers: {
    local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted', apiKey: providerKey }),
    other: testProvider('openai-compatible', `${upstream.url}/v1`, {
      toolCalling: 'prompted',
      models: { secret: { family: 'mistral' } },
    }),
  },
  debug: { recentReplies: 20 },
}));

async function call(path: string, key: string | undefined, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the tool-call routes with client keys', () => {
  it('answer 401 in the OpenAI envelope without a key', async () => {
    for (const [path, body] of [
      ['/v1/tool-calls/parse', { family: 'hermes', text: 'x' }],
      ['/v1/tool-calls/render', { family: 'hermes' }],
      ['/v1/tool-calls/families', undefined],
      ['/v1/tool-calls/recent', undefined],
    ] as const) {
      const answer = await call(path, undefined, body);
      expect(answer.status, path).toBe(401);
      expect(answer.body.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    }
  });

  it("apply the key's model policy to a configured model: a key cannot probe a model it may not use", async () => {
    const refused = await call('/v1/tool-calls/parse', aliceKey, { model: 'other/secret', text: 'x' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'model_not_allowed', param: 'model' } } });
    const render = await call('/v1/tool-calls/render', aliceKey, { model: 'other/secret' });
    expect(render).toMatchObject({ status: 403, body: { error: { code: 'model_not_allowed' } } });
    const families = await call('/v1/tool-calls/families?model=other/secret', aliceKey);
    expect(families).toMatchObject({ status: 403, body: { error: { code: 'model_not_allowed' } } });
    const allowed = await call('/v1/tool-calls/parse', bobKey, { model: 'other/secret', text: 'x' });
    expect(allowed).toMatchObject({ status: 200, body: { family: 'mistral', family_source: 'config' } });
    // A bare name or a family reaches no provider: any key may inspect those.
    expect(await call('/v1/tool-calls/parse', aliceKey, { model: 'Qwen/Qwen3-8B', text: 'x' })).toMatchObject({ status: 200 });
  });

  it('record replies of all three APIs, streamed and not; a key sees only its own, the echoed provider key redacted', async () => {
    const echoed = `My key is ${providerKey}.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${aliceKey}` };
    const messages = [{ role: 'user', content: 'Weather?' }];
    const requests = [
      ['/v1/chat/completions', { model: 'local/qwen3-8b', messages, tools: [{ type: 'function', function: weather }] }],
      ['/v1/responses', { model: 'local/qwen3-8b', input: 'Weather?', tools: [{ type: 'function', ...weather }] }],
      [
        '/v1/messages',
        { model: 'local/qwen3-8b', max_tokens: 100, messages, tools: [{ name: weather.name, input_schema: weather.parameters }] },
      ],
    ] as const;
    for (const [path, body] of requests) {
      for (const stream of [false, true]) {
        upstream.enqueue({ type: 'chat', content: echoed });
        const response = await fetch(`${gateway.baseUrl}${path}`, {
          method: 'POST',
          headers: { ...headers, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ ...body, stream }),
        });
        expect(response.status, `${path} stream=${stream}`).toBe(200);
        await response.text();
      }
    }
    const alice = await call('/v1/tool-calls/recent', aliceKey);
    expect(alice.body.data).toHaveLength(6);
    for (const reply of alice.body.data) {
      expect(reply).toMatchObject({
        model: 'local/qwen3-8b',
        family: 'hermes',
        raw: expect.stringContaining('[REDACTED]'),
        calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      });
    }
    expect(JSON.stringify(alice.body)).not.toContain(providerKey);
    const bob = await call('/v1/tool-calls/recent', bobKey);
    expect(bob.body).toMatchObject({ enabled: true, data: [] });
  });
});
