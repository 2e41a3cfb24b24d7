/** The azure-openai kind against a fake Azure resource: v1 and dated routes, api-key and Entra ID, tools and streams through all three APIs. */
import type { AccessToken, TokenCredential } from '@azure/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../../src/config/validate-config-file.js';
import { cancellationFromSignal } from '../../../src/core/cancellation.js';
import type { ProviderAdapter } from '../../../src/core/provider-adapter.js';
import type { ResolvedModel } from '../../../src/core/resolved-model.js';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { createAzureOpenAiAdapter } from '../../../providers/azure-openai/index.js';
import { startFakeAzureOpenAi, type FakeAzureOpenAi } from '../../helpers/fake-azure-openai-server.js';
import { sseChunks } from '../../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';
import pino from 'pino';

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

const blockedPhrase = 'something hateful';
const deploymentModel = {
  id: 'azure/gpt-4o-prod',
  provider: 'azure',
  providerType: 'azure-openai',
  model: 'gpt-4o-prod',
  family: 'generic-json',
  toolCalling: 'native',
} as ResolvedModel;

/** An adapter of a provider entry as the config loader builds it. */
function adapterFor(entry: Record<string, unknown>, credential?: TokenCredential): ProviderAdapter {
  const config = normalizeConfig(compileConfigFileValidator()({ providers: { azure: entry } }), {});
  return createAzureOpenAiAdapter(config.providers.azure!, undefined, credential);
}

/** The neutral events of one `hi` to the deployment, straight from the adapter. */
async function eventsOf(adapter: ProviderAdapter): Promise<StreamEvent[]> {
  const context = { cancellation: cancellationFromSignal(new AbortController().signal), requestId: 'test', log: pino({ level: 'silent' }) };
  const events: StreamEvent[] = [];
  const request = { model: deploymentModel, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
  for await (const event of await adapter.stream(request, context)) events.push(event);
  return events;
}

let azure: FakeAzureOpenAi;
let gateway: StartedGateway;

beforeAll(async () => {
  azure = await startFakeAzureOpenAi({
    deployments: ['gpt-4o-prod'],
    apiKey: 'azure-key',
    bearerTokens: () => ['entra-token'],
    blockedPhrase,
  });
  gateway = await startGateway({
    providers: {
      azure: testProvider('azure-openai', azure.url, { apiKey: 'azure-key', models: { 'gpt-4o-prod': {} } }),
      'azure-dated': testProvider('azure-openai', azure.url, { apiKey: 'azure-key', apiVersion: '2024-10-21' }),
      'azure-august': testProvider('azure-openai', azure.url, { apiKey: 'azure-key', apiVersion: '2024-08-01-preview' }),
      'azure-wrong-key': testProvider('azure-openai', azure.url, { apiKey: 'not-the-key' }),
    },
  });
});

afterAll(async () => {
  await gateway.close();
  await azure.close();
});

describe('azure-openai', () => {
  it('v1: the deployment goes as model to /openai/v1/chat/completions with the api-key header; tool calls come back', async () => {
    azure.openai.enqueue({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const completion = await gateway.client().chat.completions.create({
      model: 'azure/gpt-4o-prod',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
    });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    const sent = azure.requests.at(-1)!;
    expect(sent.path).toBe('/openai/v1/chat/completions');
    expect(sent.headers['api-key']).toBe('azure-key');
    expect(sent.headers.authorization).toBeUndefined();
    expect((sent.body as { model: string; tools: unknown[] }).model).toBe('gpt-4o-prod');
  });

  it('a dated api-version: the deployment in the path, api-version in the query; streamed', async () => {
    azure.openai.enqueue({ type: 'chat', content: 'Sunny in Paris.' });
    const stream = await gateway.client().chat.completions.create({
      model: 'azure-dated/gpt-4o-prod',
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Sunny in Paris.');
    expect(azure.requests.at(-1)!.path).toBe('/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
  });

  it('a version before 2024-09-01-preview gets max_tokens and no stream_options or parallel_tool_calls, which it would refuse', async () => {
    azure.openai.enqueue({ type: 'chat', content: 'Sunny in Paris.' });
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'azure-august/gpt-4o-prod',
        stream: true,
        max_tokens: 100,
        parallel_tool_calls: false,
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      }),
    });
    expect(response.status).toBe(200);
    const chunks = sseChunks(await response.text()) as { choices?: { delta?: { content?: string } }[]; diagnostics?: unknown }[];
    expect(chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? '').join('')).toBe('Sunny in Paris.');
    expect(JSON.stringify(chunks.at(-1)?.diagnostics)).toContain('no parallel_tool_calls');
    const sent = azure.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent.max_tokens).toBe(100);
    expect(sent).not.toHaveProperty('stream_options');
    expect(sent).not.toHaveProperty('max_completion_tokens');
    expect(sent).not.toHaveProperty('parallel_tool_calls');
  });

  it('the Messages and Responses APIs reach it too', async () => {
    azure.openai.enqueue({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const messages = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'azure/gpt-4o-prod',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
      }),
    });
    const message = (await messages.json()) as { content: { type: string; input?: unknown }[] };
    expect(message.content.find((block) => block.type === 'tool_use')?.input).toEqual({ city: 'Oslo' });
    azure.openai.enqueue({ type: 'chat', content: 'hello' });
    const response = await gateway.client().responses.create({ model: 'azure/gpt-4o-prod', input: 'hi' });
    expect(response.output_text).toBe('hello');
  });

  it("Azure's errors keep their meaning: a wrong key is the gateway's (502 upstream_authentication_failed), an unknown deployment a 404", async () => {
    const wrongKey = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'azure-wrong-key/gpt-4o-prod', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(wrongKey.status).toBe(502);
    expect(((await wrongKey.json()) as { error: { code: string } }).error.code).toBe('upstream_authentication_failed');
    const unknown = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'azure/no-such-deployment', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('deployment');
  });

  it('without an apiKey, a Microsoft Entra ID token from the credential goes as a bearer, fetched once while valid', async () => {
    let tokensIssued = 0;
    const credential: TokenCredential = {
      getToken: async (scopes) => {
        expect(scopes).toBe('https://cognitiveservices.azure.com/.default');
        tokensIssued++;
        return { token: 'entra-token', expiresOnTimestamp: Date.now() + 3_600_000 } satisfies AccessToken;
      },
    };
    const adapter = adapterFor(testProvider('azure-openai', azure.url), credential);
    for (let turn = 0; turn < 3; turn++) {
      azure.openai.enqueue({ type: 'chat', content: 'ok' });
      expect((await eventsOf(adapter)).at(-1)?.type).toBe('finish');
    }
    expect(azure.requests.at(-1)!.headers.authorization).toBe('Bearer entra-token');
    expect(tokensIssued).toBe(1);
    await adapter.close?.();
  });

  it("Azure's opening chunk of prompt annotations does not start the reply: the id and model come from the completion's chunks", async () => {
    const adapter = adapterFor(testProvider('azure-openai', azure.url, { apiKey: 'azure-key' }));
    azure.openai.enqueue({ type: 'chat', content: 'ok' });
    const events = await eventsOf(adapter);
    expect(events[0]).toMatchObject({ type: 'response-start', id: 'chatcmpl-fake', model: 'gpt-4o-prod' });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: { unified: 'stop' } });
    await adapter.close?.();
  });

  it("Azure's content filter keeps its meaning: a refused prompt is a 400 content_filter, a filtered reply finishes as content_filter", async () => {
    const refused = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'azure/gpt-4o-prod', messages: [{ role: 'user', content: `say ${blockedPhrase}` }] }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'content_filter',
      message: expect.stringContaining('content management policy'),
    });
    azure.openai.enqueue({ type: 'chat', content: 'The answer is', finishReason: 'content_filter' });
    const stream = await gateway
      .client()
      .chat.completions.create({ model: 'azure/gpt-4o-prod', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const finishReasons: (string | null)[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.finish_reason) finishReasons.push(chunk.choices[0].finish_reason);
    expect(finishReasons).toEqual(['content_filter']);
  });

  it("/v1/models lists the configured deployments: Azure's own list holds base models, which requests cannot address", async () => {
    const ids: string[] = [];
    for await (const model of gateway.client().models.list()) ids.push(model.id);
    expect(ids).toContain('azure/gpt-4o-prod');
    expect(azure.requests.some((request) => request.path.includes('/models'))).toBe(false);
  });

  it('refuses an apiVersion that is neither v1 nor a date, naming the path', () => {
    expect(() =>
      compileConfigFileValidator()({
        providers: { azure: { type: 'azure-openai', baseUrl: 'https://x.openai.azure.com', apiVersion: 'latest' } },
      }),
    ).toThrow(/providers\.azure\.apiVersion/);
  });
});
