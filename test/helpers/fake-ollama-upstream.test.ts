/**
 * The fake Ollama upstream checked by the real `ollama` package as a client: the adapter now speaks
 * `/api/chat` NDJSON itself, so this is what keeps the fake (and so the adapter's tests) honest about
 * Ollama's wire shapes.
 */
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from './fake-ollama-upstream.js';

let upstream: FakeOllamaUpstream | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function clientOf(): Promise<{ client: Ollama; fake: FakeOllamaUpstream }> {
  upstream = await startFakeOllamaUpstream({ models: ['qwen3:8b'] });
  return { client: new Ollama({ host: upstream.url }), fake: upstream };
}

describe('fake Ollama upstream, read by the ollama package', () => {
  it('streams thinking, content and a whole tool call, ending with done and its counts', async () => {
    const { client, fake } = await clientOf();
    fake.enqueue({
      type: 'chat',
      thinking: 'Let me look.',
      content: 'Checking.',
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      promptEvalCount: 7,
    });
    const stream = await client.chat({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'Weather?' }], stream: true });
    let thinking = '';
    let content = '';
    const calls: unknown[] = [];
    let last;
    for await (const part of stream) {
      thinking += part.message.thinking ?? '';
      content += part.message.content;
      calls.push(...(part.message.tool_calls ?? []));
      last = part;
    }
    expect({ thinking, content, calls }).toEqual({
      thinking: 'Let me look.',
      content: 'Checking.',
      calls: [{ function: { index: 0, name: 'get_weather', arguments: { city: 'Paris' } } }],
    });
    expect(last?.done).toBe(true);
    expect(last?.prompt_eval_count).toBe(7);
    expect(fake.requests[0]?.body).toMatchObject({ model: 'qwen3:8b', stream: true });
  });

  it('answers a whole chat, the model list and embeddings in the shapes the package types', async () => {
    const { client, fake } = await clientOf();
    fake.enqueue({ type: 'chat', content: 'Hello there.', doneReason: 'stop' });
    const reply = await client.chat({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'Hi' }], stream: false });
    expect(reply.message).toMatchObject({ role: 'assistant', content: 'Hello there.' });
    expect(reply.done_reason).toBe('stop');
    expect((await client.list()).models.map((model) => model.name)).toEqual(['qwen3:8b']);
    fake.enqueue({ type: 'embed', embeddings: [[0.5, -0.25]] });
    expect((await client.embed({ model: 'qwen3:8b', input: 'text' })).embeddings).toEqual([[0.5, -0.25]]);
  });

  it('reports an error status with Ollama body shape as the package surfaces it', async () => {
    const { client, fake } = await clientOf();
    fake.enqueue({ type: 'error', status: 404, message: 'model "nope" not found, try pulling it first' });
    await expect(client.chat({ model: 'nope', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status_code: 404,
      error: expect.stringContaining('not found'),
    });
  });
});
