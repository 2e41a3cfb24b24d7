/**
 * The cloud provider kinds through all three inbound APIs: Vertex AI (Gemini and Claude) and Azure OpenAI
 * (v1 and a dated API version), each driven by a real client (the `openai` SDK for Chat Completions and
 * Responses; raw Messages SSE as Anthropic's SDK reads it), with tools and streaming: a call streamed out,
 * its result sent back, and what reached the fake cloud endpoint checked in that upstream's own shapes.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAzureOpenAi, type FakeAzureOpenAi } from '../helpers/fake-azure-openai-server.js';
import { startFakeVertex, type FakeVertex } from '../helpers/fake-vertex-server.js';
import type { RecordedRequest } from '../helpers/loopback-server.js';
import { postJson } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';
import { accumulate, anthropicEvents } from './messages/messages-test-kit.js';

const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const question = 'Weather in Paris?';
const toolOutput = '22 °C, sunny';
const answer = 'Sunny in Paris.';

let vertex: FakeVertex;
let azure: FakeAzureOpenAi;
let gateway: StartedGateway;

/** One way into a cloud: its model, how its fake is scripted, and where the tool result must show up. */
type CloudRoute = {
  name: string;
  model: string;
  scriptCall(): void;
  scriptAnswer(): void;
  /** The requests that reached the cloud endpoint for this route. */
  sent(): RecordedRequest[];
  streamedPath: string;
  wholePath: string;
  authentication: Record<string, string>;
  /** The tool's result, in the upstream's own shape, somewhere in the body it received. */
  expectToolResult(body: Record<string, unknown>): void;
};

const vertexPrefix = '/v1/projects/my-project/locations/us-east5/publishers';

function geminiRoute(): CloudRoute {
  return {
    name: 'vertex gemini',
    model: 'vertex/gemini-2.5-pro',
    scriptCall: () =>
      vertex.gemini.enqueue({
        type: 'generate',
        chunks: [[{ text: 'Let me check. ' }], [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }]],
      }),
    scriptAnswer: () => vertex.gemini.enqueue({ type: 'generate', chunks: [[{ text: 'Sunny ' }], [{ text: 'in Paris.' }]] }),
    sent: () => vertex.requests.filter((request) => request.path.includes('/publishers/google/')),
    streamedPath: `${vertexPrefix}/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse`,
    wholePath: `${vertexPrefix}/google/models/gemini-2.5-pro:generateContent`,
    authentication: { authorization: 'Bearer ya29.vertex-token' },
    expectToolResult: (body) =>
      expect(body.contents).toContainEqual({
        role: 'user',
        parts: [{ functionResponse: expect.objectContaining({ name: 'get_weather', response: { result: toolOutput } }) }],
      }),
  };
}

function claudeRoute(): CloudRoute {
  return {
    name: 'vertex claude',
    model: 'vertex/claude-sonnet-4-5@20250929',
    scriptCall: () =>
      vertex.anthropic.enqueue({
        type: 'message',
        content: [
          { type: 'text', text: 'Let me check. ' },
          { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
        ],
      }),
    scriptAnswer: () => vertex.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: answer }] }),
    sent: () => vertex.requests.filter((request) => request.path.includes('/publishers/anthropic/')),
    streamedPath: `${vertexPrefix}/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict`,
    wholePath: `${vertexPrefix}/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`,
    authentication: { authorization: 'Bearer ya29.vertex-token' },
    expectToolResult: (body) => {
      expect(body).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
      expect(body).not.toHaveProperty('model');
      expect(body.messages).toContainEqual({
        role: 'user',
        content: [expect.objectContaining({ type: 'tool_result', content: toolOutput })],
      });
    },
  };
}

function azureRoute(name: string, provider: string, streamedPath: string, wholePath: string): CloudRoute {
  return {
    name,
    model: `${provider}/gpt-4o-prod`,
    scriptCall: () =>
      azure.openai.enqueue({ type: 'chat', content: 'Let me check. ', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }),
    scriptAnswer: () => azure.openai.enqueue({ type: 'chat', content: answer }),
    sent: () => azure.requests.filter((request) => request.path === streamedPath || request.path === wholePath),
    streamedPath,
    wholePath,
    authentication: { 'api-key': 'azure-key' },
    expectToolResult: (body) => expect(body.messages).toContainEqual(expect.objectContaining({ role: 'tool', content: toolOutput })),
  };
}

const dated = '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21';
const routes: CloudRoute[] = [
  geminiRoute(),
  claudeRoute(),
  azureRoute('azure v1', 'azure', '/openai/v1/chat/completions', '/openai/v1/chat/completions'),
  azureRoute('azure dated api-version', 'azure-dated', dated, dated),
];

beforeAll(async () => {
  vertex = await startFakeVertex({ project: 'my-project', location: 'us-east5', bearerTokens: () => ['ya29.vertex-token'] });
  azure = await startFakeAzureOpenAi({ deployments: ['gpt-4o-prod'], apiKey: 'azure-key' });
  gateway = await startGateway({
    providers: {
      vertex: testProvider('vertex', vertex.url, { project: 'my-project', location: 'us-east5', accessToken: 'ya29.vertex-token' }),
      azure: testProvider('azure-openai', azure.url, { apiKey: 'azure-key' }),
      'azure-dated': testProvider('azure-openai', azure.url, { apiKey: 'azure-key', apiVersion: '2024-10-21' }),
    },
  });
});

afterAll(async () => {
  await gateway.close();
  await Promise.all([vertex.close(), azure.close()]);
});

/** The last request the route's endpoint received: on the path asked for, authenticated, its body returned. */
function lastSent(route: CloudRoute, path: string): Record<string, unknown> {
  const request = route.sent().at(-1);
  expect(request?.path).toBe(path);
  expect(request?.headers).toMatchObject(route.authentication);
  return request?.body as Record<string, unknown>;
}

describe.each(routes.map((route) => [route.name, route] as const))('%s', (_name, route) => {
  it('Chat Completions (openai SDK): a streamed tool call, then its result sent back, streamed', async () => {
    const client = gateway.client();
    const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters } }];
    route.scriptCall();
    const first = await client.chat.completions.stream({ model: route.model, messages: [{ role: 'user', content: question }], tools });
    const models = new Set<string>();
    for await (const chunk of first) models.add(chunk.model);
    const completion = await first.finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('Let me check. ');
    expect(
      message?.tool_calls?.map((call) => call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]),
    ).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    // Every chunk names the model (Azure's opening annotation chunk has an empty `model`, and is not one of them).
    expect([...models]).toEqual([expect.stringMatching(/\S/)]);
    lastSent(route, route.streamedPath);

    route.scriptAnswer();
    const call = message?.tool_calls?.[0];
    const second = client.chat.completions.stream({
      model: route.model,
      tools,
      messages: [
        { role: 'user', content: question },
        { role: 'assistant', content: message?.content ?? null, tool_calls: message?.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call?.id ?? '', content: toolOutput },
      ],
    });
    expect((await second.finalChatCompletion()).choices[0]?.message.content).toBe(answer);
    route.expectToolResult(lastSent(route, route.streamedPath));
  });

  it('Responses (openai SDK): a streamed function call, then its output sent back, whole', async () => {
    const client = gateway.client();
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', parameters, strict: false }];
    route.scriptCall();
    const stream = client.responses.stream({ model: route.model, input: question, tools });
    const kinds = new Set<string>();
    for await (const event of stream) kinds.add(event.type);
    const first = await stream.finalResponse();
    expect(kinds).toContain('response.function_call_arguments.delta');
    expect(first.output_text).toBe('Let me check. ');
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && [call.name, JSON.parse(call.arguments)]).toEqual(['get_weather', { city: 'Paris' }]);
    lastSent(route, route.streamedPath);
    if (call?.type !== 'function_call') return;

    route.scriptAnswer();
    const second = await client.responses.create({
      model: route.model,
      tools,
      input: [{ role: 'user', content: question }, call, { type: 'function_call_output', call_id: call.call_id, output: toolOutput }],
    });
    expect(second.output_text).toBe(answer);
    route.expectToolResult(lastSent(route, route.wholePath));
  });

  it('Anthropic Messages: a streamed tool_use block, then its tool_result sent back, whole', async () => {
    const tools = [{ name: 'get_weather', input_schema: parameters }];
    route.scriptCall();
    const first = await postJson(`${gateway.baseUrl}/v1/messages`, {
      model: route.model,
      max_tokens: 512,
      stream: true,
      messages: [{ role: 'user', content: question }],
      tools,
    });
    expect(first.status).toBe(200);
    const streamed = accumulate(anthropicEvents(first.text));
    expect(streamed.stopReason).toBe('tool_use');
    expect(streamed.content).toEqual([
      { type: 'text', text: 'Let me check. ' },
      expect.objectContaining({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } }),
    ]);
    lastSent(route, route.streamedPath);

    route.scriptAnswer();
    const toolUse = streamed.content[1] as { id: string; name: string; input: unknown };
    const second = await postJson(`${gateway.baseUrl}/v1/messages`, {
      model: route.model,
      max_tokens: 512,
      tools,
      messages: [
        { role: 'user', content: question },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check. ' },
            { type: 'tool_use', ...toolUse },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: toolOutput }] },
      ],
    });
    expect(second.status).toBe(200);
    expect(JSON.parse(second.text)).toMatchObject({ content: [{ type: 'text', text: answer }], stop_reason: 'end_turn' });
    route.expectToolResult(lastSent(route, route.wholePath));
  });
});
