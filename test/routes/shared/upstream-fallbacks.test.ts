/**
 * Ordered fallbacks, end to end: the order, the key's policy and fallbackOn; a native model falling back
 * to a prompted one with a tool call in flight (re-planned: history in the target's syntax, the reply's
 * call structured) on Chat, Responses and Messages; and the reverse.
 */
import { describe, expect, it } from 'vitest';
import type { FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { postJson, sseChunks } from '../../helpers/read-sse.js';
import { testProvider } from '../../helpers/start-gateway.js';
import { chat, fakeUpstream, gatewayFor, scrape } from './resilience-kit.js';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** The Qwen3-Coder XML a prompted model answers with. */
const qwenCall = '<tool_call>\n<function=get_weather>\n<parameter=city>\nLyon\n</parameter>\n</function>\n</tool_call>';

describe('fallbacks', () => {
  it('tries the targets in order, skipping one the key may not use', async () => {
    const [first, second, third] = await Promise.all([fakeUpstream(), fakeUpstream(), fakeUpstream()]);
    const gateway = await gatewayFor({
      server: {
        apiKeys: [
          { key: 'sk-admin-0123456789', name: 'ops', admin: true },
          { key: 'sk-team-0123456789', name: 'team', models: ['a/*', 'c/*'] },
        ],
      },
      providers: {
        a: testProvider('openai-compatible', `${first.url}/v1`),
        b: testProvider('openai-compatible', `${second.url}/v1`),
        c: testProvider('openai-compatible', `${third.url}/v1`),
      },
      aliases: { fast: 'a/model-a' },
      fallbacks: { fast: ['b/model-b', 'c/model-c'] },
    });
    const busy = { type: 'http-error', status: 503, errorType: 'server_error', message: 'busy' } as const;
    first.enqueue(busy, busy);
    second.enqueue({ type: 'http-error', status: 502, errorType: 'server_error', message: 'bad gateway' });
    third.enqueue({ type: 'chat', content: 'third answered' }, { type: 'chat', content: 'third again' });

    // The alias's key is its target: a/model-a falls back to b, then c.
    const admin = { authorization: 'Bearer sk-admin-0123456789' };
    const response = await chat(gateway, { model: 'fast' }, admin);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text).choices[0].message.content).toBe('third answered');
    expect(response.headers.get('x-interlingua-model')).toBe('c/model-c');
    expect(response.headers.get('x-interlingua-attempts')).toBe('3');
    expect(
      [first, second, third].map((upstream) => upstream.chatRequests().map((request) => (request.body as { model: string }).model)),
    ).toEqual([['model-a'], ['model-b'], ['model-c']]);

    // team may not use b/*: its request goes from a straight to c.
    const restricted = await chat(gateway, { model: 'a/model-a' }, { authorization: 'Bearer sk-team-0123456789' });
    expect(restricted.status).toBe(200);
    expect(restricted.headers.get('x-interlingua-model')).toBe('c/model-c');
    expect(second.chatRequests()).toHaveLength(1);
    const metrics = await scrape(gateway, admin);
    expect(metrics.get('interlingua_upstream_fallbacks_total{provider="a",model="model-a",reason="http_503"}')).toBe(2);
    expect(metrics.get('interlingua_upstream_fallbacks_total{provider="b",model="model-b",reason="http_502"}')).toBe(1);
  });

  it('falls back when the primary sends no headers within its timeout', async () => {
    const [slow, quick] = await Promise.all([fakeUpstream(), fakeUpstream()]);
    slow.enqueue({ type: 'chat', content: 'too slow', headersDelayMs: 3_000 });
    quick.enqueue({ type: 'chat', content: 'in time' });
    const gateway = await gatewayFor({
      providers: {
        slow: testProvider('openai-compatible', `${slow.url}/v1`, { timeouts: { connectMs: 2_000, headersMs: 100, bodyMs: 10_000 } }),
        quick: testProvider('openai-compatible', `${quick.url}/v1`),
      },
      fallbacks: { 'slow/m': ['quick/m'] },
    });
    const response = await chat(gateway, { model: 'slow/m', stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-model')).toBe('quick/m');
    expect((await scrape(gateway)).get('interlingua_upstream_fallbacks_total{provider="slow",model="m",reason="timeout"}')).toBe(1);
  });

  it('does not fall back on a status outside fallbackOn, and the last target’s failure is the answer', async () => {
    const [first, second] = await Promise.all([fakeUpstream(), fakeUpstream()]);
    const gateway = await gatewayFor({
      providers: { a: testProvider('openai-compatible', `${first.url}/v1`), b: testProvider('openai-compatible', `${second.url}/v1`) },
      fallbacks: { 'a/m': ['b/m'] },
      fallbackOn: [503],
    });
    first.enqueue({ type: 'http-error', status: 500, errorType: 'server_error', message: 'broken' });
    expect((await chat(gateway, { model: 'a/m' })).status).toBe(500);
    expect(second.chatRequests()).toHaveLength(0);

    first.enqueue({ type: 'http-error', status: 503, errorType: 'server_error', message: 'busy' });
    second.enqueue({ type: 'http-error', status: 404, message: 'no such model', code: 'model_not_found' });
    const last = await chat(gateway, { model: 'a/m' });
    expect(last.status).toBe(404);
    expect(JSON.parse(last.text).error.message).toBe('no such model');
  });
});

/** A native model (OpenAI) that is down, and a prompted Qwen3-Coder model behind it. */
async function nativeToPrompted() {
  const [native, prompted] = await Promise.all([fakeUpstream(), fakeUpstream()]);
  native.enqueue({ type: 'http-error', status: 503, errorType: 'server_error', message: 'overloaded' });
  prompted.enqueue({ type: 'chat', content: qwenCall });
  const gateway = await gatewayFor({
    providers: {
      openai: testProvider('openai', `${native.url}/v1`, { apiKey: 'sk-upstream-native' }),
      local: testProvider('openai-compatible', `${prompted.url}/v1`, { toolCalling: 'prompted' }),
    },
    fallbacks: { 'openai/gpt-4.1': ['local/qwen3-coder-30b-a3b-instruct'] },
  });
  return { native, prompted, gateway };
}

/** A Chat Completions history with a tool call in flight: the call, its result, and the model's turn next. */
const chatHistory = [
  { role: 'user', content: 'Weather in Paris, then Lyon?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21 C' },
];

type WireMessage = { role: string; content: unknown; tool_calls?: unknown };

/** What the prompted upstream must see: the tools in its prompt, the earlier call and its result in Qwen3-Coder XML, no native tool fields. */
function expectRenderedForQwen(prompted: FakeOpenAiUpstream): void {
  const body = prompted.lastChatBody() as { model: string; tools?: unknown; messages: WireMessage[] };
  expect(body.model).toBe('qwen3-coder-30b-a3b-instruct');
  expect(body.tools).toBeUndefined();
  const texts = body.messages.map((message) => ({
    role: message.role,
    text: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
  }));
  expect(body.messages.every((message) => message.tool_calls === undefined && message.role !== 'tool')).toBe(true);
  expect(texts[0]?.role).toBe('system');
  expect(texts[0]?.text).toContain('get_weather');
  expect(texts.find((message) => message.role === 'assistant')?.text).toContain(
    '<function=get_weather>\n<parameter=city>\nParis\n</parameter>',
  );
  expect(texts.some((message) => message.role === 'user' && message.text.includes('<tool_response>\nsunny, 21 C\n</tool_response>'))).toBe(
    true,
  );
}

describe('a native model falling back to a prompted one, with a tool call in flight', () => {
  it('Chat Completions (streamed): the history re-rendered in Qwen3-Coder syntax, the reply’s call structured', async () => {
    const { native, prompted, gateway } = await nativeToPrompted();
    const response = await chat(gateway, {
      model: 'openai/gpt-4.1',
      stream: true,
      tools: [weatherTool],
      messages: chatHistory,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-model')).toBe('local/qwen3-coder-30b-a3b-instruct');
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    expect(response.headers.get('x-tool-calling')).toBe('prompted');
    expect(native.chatRequests()).toHaveLength(1);
    expect((native.lastChatBody() as { tools?: unknown[] }).tools).toHaveLength(1);
    expectRenderedForQwen(prompted);
    const chunks = sseChunks(response.text) as {
      choices: {
        delta: { content?: string; tool_calls?: { function: { name?: string; arguments?: string } }[] };
        finish_reason: string | null;
      }[];
    }[];
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]?.function.name).toBe('get_weather');
    expect(JSON.parse(calls.map((call) => call.function.arguments ?? '').join(''))).toEqual({ city: 'Lyon' });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).not.toContain('<tool_call>');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('Responses: the same fall back, the call returned as a function_call item', async () => {
    const { prompted, gateway } = await nativeToPrompted();
    const response = await postJson(`${gateway.baseUrl}/v1/responses`, {
      model: 'openai/gpt-4.1',
      tools: [{ type: 'function', ...weatherTool.function }],
      input: [
        { type: 'message', role: 'user', content: 'Weather in Paris, then Lyon?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny, 21 C' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-model')).toBe('local/qwen3-coder-30b-a3b-instruct');
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    expectRenderedForQwen(prompted);
    const output = (JSON.parse(response.text) as { output: { type: string; name?: string; arguments?: string }[] }).output;
    const call = output.find((item) => item.type === 'function_call');
    expect(call?.name).toBe('get_weather');
    expect(JSON.parse(call?.arguments ?? '{}')).toEqual({ city: 'Lyon' });
  });

  it('Messages (streamed): the same fall back, the call returned as a tool_use block', async () => {
    const { prompted, gateway } = await nativeToPrompted();
    const response = await postJson(
      `${gateway.baseUrl}/v1/messages`,
      {
        model: 'openai/gpt-4.1',
        max_tokens: 256,
        stream: true,
        tools: [{ name: 'get_weather', description: 'Weather for a city', input_schema: weatherTool.function.parameters }],
        messages: [
          { role: 'user', content: 'Weather in Paris, then Lyon?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny, 21 C' }] },
        ],
      },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-interlingua-model')).toBe('local/qwen3-coder-30b-a3b-instruct');
    expect(response.headers.get('x-interlingua-attempts')).toBe('2');
    expectRenderedForQwen(prompted);
    const events = response.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map(
        (line) =>
          JSON.parse(line.slice('data: '.length)) as {
            type: string;
            content_block?: { type: string; name?: string };
            delta?: { type: string; partial_json?: string; stop_reason?: string };
          },
      );
    expect(
      events.find((event) => event.type === 'content_block_start' && event.content_block?.type === 'tool_use')?.content_block?.name,
    ).toBe('get_weather');
    const input = events.map((event) => (event.delta?.type === 'input_json_delta' ? (event.delta.partial_json ?? '') : '')).join('');
    expect(JSON.parse(input)).toEqual({ city: 'Lyon' });
    expect(events.find((event) => event.type === 'message_delta')?.delta?.stop_reason).toBe('tool_use');
  });
});

describe('a prompted model falling back to another prompted family', () => {
  it('re-renders the history from Hermes JSON tags into Qwen3-Coder XML', async () => {
    const [hermes, qwen] = await Promise.all([fakeUpstream(), fakeUpstream()]);
    hermes.enqueue({ type: 'http-error', status: 503, errorType: 'server_error', message: 'busy' });
    qwen.enqueue({ type: 'chat', content: qwenCall });
    const gateway = await gatewayFor({
      providers: {
        small: testProvider('openai-compatible', `${hermes.url}/v1`, { toolCalling: 'prompted' }),
        coder: testProvider('openai-compatible', `${qwen.url}/v1`, { toolCalling: 'prompted' }),
      },
      fallbacks: { 'small/qwen3-8b': ['coder/qwen3-coder-30b-a3b-instruct'] },
    });
    const response = await chat(gateway, {
      model: 'small/qwen3-8b',
      tools: [weatherTool],
      messages: chatHistory,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-tool-format')).toBe('qwen3-coder');
    expect(JSON.stringify((hermes.lastChatBody() as { messages: unknown }).messages)).toContain(
      '<tool_call>\\n{\\"name\\": \\"get_weather\\"',
    );
    expectRenderedForQwen(qwen);
    const call = (
      JSON.parse(response.text) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] }
    ).choices[0]?.message.tool_calls[0];
    expect(call?.function.name).toBe('get_weather');
    expect(JSON.parse(call?.function.arguments ?? '{}')).toEqual({ city: 'Lyon' });
  });
});

describe('a prompted model falling back to a native one', () => {
  it('re-plans for the native target: tools and the earlier call go natively, not as Hermes text', async () => {
    const [prompted, native] = await Promise.all([fakeUpstream(), fakeUpstream()]);
    prompted.enqueue({ type: 'http-error', status: 500, errorType: 'server_error', message: 'crashed' });
    native.enqueue({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }] });
    const gateway = await gatewayFor({
      providers: {
        local: testProvider('openai-compatible', `${prompted.url}/v1`, { toolCalling: 'prompted' }),
        cloud: testProvider('openai-compatible', `${native.url}/v1`, { toolCalling: 'native' }),
      },
      fallbacks: { 'local/qwen3-8b': ['cloud/gpt-4.1-mini'] },
    });
    const response = await chat(gateway, { model: 'local/qwen3-8b', tools: [weatherTool], messages: chatHistory });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-tool-calling')).toBe('native');
    expect(response.headers.get('x-interlingua-model')).toBe('cloud/gpt-4.1-mini');
    // The prompted attempt was written in Hermes; the native one carries the client's structure.
    expect(JSON.stringify((prompted.lastChatBody() as { messages: unknown }).messages)).toContain('<tool_call>');
    const body = native.lastChatBody() as { tools?: { function: { name: string } }[]; messages: WireMessage[] };
    expect(body.tools?.map((tool) => tool.function.name)).toEqual(['get_weather']);
    expect(JSON.stringify(body.messages)).not.toContain('<tool_call>');
    expect(body.messages[1]?.tool_calls).toEqual(chatHistory[1]?.tool_calls);
    expect(body.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    const message = (
      JSON.parse(response.text) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] }
    ).choices[0]?.message;
    expect(message?.tool_calls[0]?.function).toEqual({ name: 'get_weather', arguments: '{"city":"Lyon"}' });
  });
});
