/** What the Ollama adapter sends upstream: the exact `/api/chat` body, headers and warnings. */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/index.js';
import { createOllamaAdapter } from '../../../providers/ollama/index.js';
import { chatRequest, collectEvents, ollamaConfig, providerContext } from './ollama-test-kit.js';
import { adapter, upstream, useFakeOllama } from './ollama-fixture.js';

useFakeOllama();

afterEach(() => {
  upstream.requests.length = 0;
});

async function send(request = chatRequest()): Promise<{ body: Record<string, unknown>; events: StreamEvent[] }> {
  const events = await collectEvents(await adapter.stream(request, providerContext()));
  const sent = upstream.requests.at(-1);
  if (!sent) throw new Error('nothing reached the upstream');
  expect(sent.method).toBe('POST');
  expect(sent.path).toBe('/api/chat');
  return { body: sent.body as Record<string, unknown>, events };
}

function warningsOf(events: StreamEvent[]) {
  const start = events[0];
  if (start?.type !== 'response-start') throw new Error('the first event is not response-start');
  return start.warnings;
}

describe('ollama adapter: request body', () => {
  it('sends only what was given, always streaming, and asks Ollama not to truncate a chat longer than the context', async () => {
    const { body, events } = await send();
    expect(body).toEqual({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'Hi' }], truncate: false, stream: true });
    expect(warningsOf(events)).toEqual([]);
  });

  it("lets a client ask for Ollama's truncation with truncate: true; any other value is not sent", async () => {
    const asked = await send(chatRequest({ openaiExtras: { truncate: true } }));
    expect(asked.body.truncate).toBe(true);
    expect(warningsOf(asked.events)).toEqual([]);
    const odd = await send(chatRequest({ openaiExtras: { truncate: 'yes' } }));
    expect(odd.body.truncate).toBe(false);
    expect(warningsOf(odd.events).map((warning) => warning.message)).toEqual([expect.stringContaining('truncate')]);
  });

  it('translates a whole conversation: images, thinking, tool calls as objects, named tool results', async () => {
    const png = Buffer.from('fake png bytes').toString('base64');
    const { body, events } = await send(
      chatRequest({
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'file', mediaType: 'image/png', data: `data:image/png;base64,${png}` },
              { type: 'file', mediaType: 'image/jpeg', data: png },
              { type: 'file', mediaType: 'image/png', data: 'https://example.com/cat.png' },
              { type: 'file', mediaType: 'application/pdf', data: png },
              { type: 'text', text: 'And the weather?' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'Need the weather.' },
              { type: 'text', text: 'Checking.' },
              { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","days":0}' },
              { type: 'tool-call', id: 'call_2', name: 'get_time', arguments: '' },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: '{"temperature":21}' },
              { type: 'tool-result', toolCallId: 'call_2', output: '12:00' },
            ],
          },
        ],
      }),
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is in these?\nAnd the weather?', images: [png, png] },
      {
        role: 'assistant',
        content: 'Checking.',
        thinking: 'Need the weather.',
        tool_calls: [
          { id: 'call_1', function: { name: 'get_weather', arguments: { city: 'Paris', days: 0 } } },
          { id: 'call_2', function: { name: 'get_time', arguments: {} } },
        ],
      },
      { role: 'tool', content: '{"temperature":21}', tool_name: 'get_weather', tool_call_id: 'call_1' },
      // The name is looked up from the assistant turn that made the call.
      { role: 'tool', content: '12:00', tool_name: 'get_time', tool_call_id: 'call_2' },
    ]);
    expect(warningsOf(events).map((warning) => warning.code)).toEqual(['unsupported-parameter', 'unsupported-parameter']);
    expect(warningsOf(events)[0]?.message).toMatch(/image URLs/);
    expect(warningsOf(events)[1]?.message).toMatch(/application\/pdf/);
  });

  it('maps tools and generation options, keeping 0 and dropping null', async () => {
    const { body, events } = await send(
      chatRequest({
        tools: [
          {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          { name: 'ping', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { type: 'auto' },
        temperature: 0,
        topP: 0.9,
        stop: ['</done>'],
        seed: 0,
        maxOutputTokens: 256,
        presencePenalty: 0,
        frequencyPenalty: null,
      }),
    );
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
      { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(body.options).toEqual({
      temperature: 0,
      top_p: 0.9,
      stop: ['</done>'],
      seed: 0,
      num_predict: 256,
      presence_penalty: 0,
    });
    expect(warningsOf(events)).toEqual([]);
  });

  it('maps response formats to `format`', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    expect((await send(chatRequest({ responseFormat: { type: 'json_object' } }))).body.format).toBe('json');
    expect((await send(chatRequest({ responseFormat: { type: 'json_schema', name: 'answer', schema } }))).body.format).toEqual(schema);
    expect((await send(chatRequest({ responseFormat: { type: 'text' } }))).body).not.toHaveProperty('format');
    expect((await send(chatRequest({ responseFormat: null }))).body).not.toHaveProperty('format');
  });

  it('maps reasoning effort to `think`, false kept', async () => {
    expect((await send(chatRequest({ reasoningEffort: 'high' }))).body.think).toBe('high');
    expect((await send(chatRequest({ reasoningEffort: 'low' }))).body.think).toBe('low');
    expect((await send(chatRequest({ reasoningEffort: 'minimal' }))).body.think).toBe(false);
    expect((await send(chatRequest({ reasoningEffort: 'none' }))).body.think).toBe(false);
    const unknown = await send(chatRequest({ reasoningEffort: 'maximum' }));
    expect(unknown.body).not.toHaveProperty('think');
    expect(warningsOf(unknown.events)[0]?.message).toMatch(/reasoning_effort/);
  });

  it('honours tool_choice none by sending no tools', async () => {
    const { body, events } = await send(
      chatRequest({ tools: [{ name: 'ping', parameters: { type: 'object' } }], toolChoice: { type: 'none' } }),
    );
    expect(body).not.toHaveProperty('tools');
    expect(warningsOf(events)).toEqual([]);
  });

  it('warns about what Ollama cannot enforce: forced tools, parallel_tool_calls, user, OpenAI extras', async () => {
    const tools = [{ name: 'ping', parameters: { type: 'object' } }];
    const required = await send(chatRequest({ tools, toolChoice: { type: 'required' }, parallelToolCalls: false }));
    expect(required.body.tools).toHaveLength(1);
    expect(warningsOf(required.events)).toEqual([
      { code: 'unsupported-parameter', message: expect.stringMatching(/^Ollama does not support 'tool_choice'.*required/) },
      { code: 'unsupported-parameter', message: expect.stringMatching(/^Ollama does not support 'parallel_tool_calls'/) },
    ]);
    const named = await send(chatRequest({ tools, toolChoice: { type: 'tool', name: 'ping' } }));
    expect(warningsOf(named.events)[0]?.message).toMatch(/tool_choice.*'ping'/);
    const extras = await send(chatRequest({ user: 'user-42', openaiExtras: { logit_bias: { 1: 2 }, store: true } }));
    expect(extras.body).not.toHaveProperty('user');
    expect(extras.body).not.toHaveProperty('logit_bias');
    expect(warningsOf(extras.events).map((warning) => warning.message)).toEqual([
      expect.stringMatching(/'user'/),
      expect.stringMatching(/'logit_bias'/),
      expect.stringMatching(/'store'/),
    ]);
  });

  it('sends tool-call history whose arguments are not a JSON object as an object holding their text, so the turn is served', async () => {
    const { body } = await send(
      chatRequest({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'ping', arguments: '{"broken"' }] },
        ],
      }),
    );
    const assistant = (body.messages as { tool_calls?: { function: { arguments: unknown } }[] }[])[1];
    expect(assistant?.tool_calls?.[0]?.function.arguments).toEqual({ arguments: '{"broken"' });
  });

  it('never reads a local file named by an image (the package would)', async () => {
    const localFile = path.resolve('package.json');
    const { body } = await send(
      chatRequest({ messages: [{ role: 'user', content: [{ type: 'file', mediaType: 'image/png', data: localFile }] }] }),
    );
    expect(body.messages).toEqual([{ role: 'user', content: '', images: [localFile] }]);
  });
});

describe('ollama adapter: request headers', () => {
  it('sends the API key as a bearer token, the configured headers and forwarded headers', async () => {
    const keyed = createOllamaAdapter(
      ollamaConfig(upstream.url, {
        apiKey: 'secret-key',
        headers: { 'X-Team': 'blue', authorization: 'Bearer overridden', 'User-Agent': 'interlingua-test' },
      }),
    );
    try {
      const request = chatRequest({ forwardHeaders: { 'x-trace': 'abc', 'x-team': 'client-cannot-override' } });
      await collectEvents(await keyed.stream(request, providerContext()));
      const headers = upstream.requests.at(-1)?.headers;
      expect(headers?.authorization).toBe('Bearer secret-key');
      expect(headers?.['x-team']).toBe('blue');
      expect(headers?.['user-agent']).toBe('interlingua-test');
      expect(headers?.['x-trace']).toBe('abc');
      expect(headers?.['content-type']).toBe('application/json');
    } finally {
      await keyed.close?.();
    }
  });

  it('sends no Authorization header without an API key', async () => {
    await send();
    expect(upstream.requests.at(-1)?.headers).not.toHaveProperty('authorization');
  });
});
