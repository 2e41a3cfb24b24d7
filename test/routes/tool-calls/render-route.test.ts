/**
 * POST /v1/tool-calls/render (the system text and history a prompted model is sent, each call in the family's
 * syntax and every agent_format), GET /v1/tool-calls/families, and the keys every route needs.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../../helpers/gateway-with-openai-upstream.js';
import { testProvider } from '../../helpers/start-gateway.js';

const weather: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const clientKey = 'sk-inspector-client-key';

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  server: { apiKeys: [clientKey] },
  providers: {
    local: testProvider('openai-compatible', `${upstream.url}/v1`, {
      toolCalling: 'prompted',
      models: { 'my-finetune': { family: 'glm' } },
    }),
  },
}));

/** `key: null` sends none. */
async function send(method: string, path: string, body?: unknown, key: string | null = clientKey) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('POST /v1/tool-calls/render', () => {
  it('gives the system text that a chat request sends upstream, byte for byte', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ];
    upstream.enqueue({ type: 'chat', content: 'ok' });
    await gateway.client(clientKey).chat.completions.create({ model: 'local/Qwen/Qwen3-8B', messages, tools: [weather] });
    const sent = upstream.lastChatBody() as { messages: { role: string; content: string }[] };
    const rendered = await send('POST', '/v1/tool-calls/render', { model: 'local/Qwen/Qwen3-8B', messages, tools: [weather] });
    expect(rendered.status).toBe(200);
    expect(rendered.body).toMatchObject({ family: 'hermes', family_source: 'config' });
    expect(rendered.body.system).toBe(sent.messages[0]?.content);
    expect((rendered.body.messages as { role: string; content: string }[]).map((message) => message.content)).toEqual(
      sent.messages.map((message) => message.content),
    );
  });

  it('renders each call in the family syntax and in every agent_format, from the history when no calls are given', async () => {
    const rendered = await send('POST', '/v1/tool-calls/render', {
      family: 'qwen3-coder',
      tools: [weather],
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
      ],
    });
    const calls = rendered.body.calls as { name: string; family: string; agent_formats: Record<string, string> }[];
    expect(calls).toHaveLength(1);
    expect(calls[0]?.family).toContain('<function=get_weather>');
    expect(Object.keys(calls[0]?.agent_formats ?? {})).toEqual(
      expect.arrayContaining(['qwen3', 'xml', 'llama3', 'hermes', 'mistral', 'harmony', 'gemma']),
    );
    expect(calls[0]?.agent_formats.xml).toContain('<tool_call>');
  });

  it('uses a configured per-model family override', async () => {
    const rendered = await send('POST', '/v1/tool-calls/render', {
      model: 'local/my-finetune',
      tools: [weather],
      calls: [{ name: 'get_weather', arguments: { city: 'Rome' } }],
    });
    expect(rendered.body.family).toBe('glm');
    expect((rendered.body.calls as { family: string }[])[0]?.family).toContain('<arg_key>city</arg_key>');
  });

  it('lists only the named tool with tool_choice naming it, and nothing without tools', async () => {
    const second = { type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } };
    const named = await send('POST', '/v1/tool-calls/render', {
      family: 'hermes',
      tools: [weather, second],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    expect(named.body.system).toContain('get_time');
    expect(named.body.system).not.toContain('get_weather');
    const none = await send('POST', '/v1/tool-calls/render', { family: 'hermes' });
    expect(none.body).toMatchObject({ system: null, messages: [], calls: [] });
  });
});

describe('GET /v1/tool-calls/families', () => {
  it('lists the families and agent formats, and resolves a model name', async () => {
    const answer = await send('GET', '/v1/tool-calls/families?model=gpt-oss-120b');
    expect(answer.body.families).toEqual(expect.arrayContaining(['hermes', 'qwen3-coder', 'harmony', 'generic-json']));
    expect(answer.body.agent_formats).toEqual(expect.arrayContaining(['qwen3', 'xml']));
    expect(answer.body.resolved).toMatchObject({ family: 'harmony', family_source: 'model-name' });
  });
});

describe('keys', () => {
  it.each([
    ['POST', '/v1/tool-calls/parse', { family: 'hermes', text: 'x' }],
    ['POST', '/v1/tool-calls/render', { family: 'hermes' }],
    ['GET', '/v1/tool-calls/families', undefined],
    ['GET', '/v1/tool-calls/recent', undefined],
  ])('%s %s needs a client key like every route', async (method, path, body) => {
    const refused = await send(method, path, body, null);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect((await send(method, path, body)).status).toBe(200);
  });

  it('serves the inspector page itself without a key (it holds no data)', async () => {
    for (const path of ['/inspector', '/inspector/inspector.css', '/inspector/inspector.js']) {
      const response = await fetch(`${gateway.baseUrl}${path}`);
      expect(response.status).toBe(200);
      await response.text();
    }
  });
});
