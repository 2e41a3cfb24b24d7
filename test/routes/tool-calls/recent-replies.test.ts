/**
 * GET /v1/tool-calls/recent with `debug.recentReplies`: the last N prompted-lane replies, raw text next to
 * what the client got, newest first, bounded, with configured secrets redacted; off by default.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const weather: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const providerKey = 'sk-provider-secret-0123456789';

let upstream: FakeOpenAiUpstream;
let kept: StartedGateway;
let off: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  const providers = {
    local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted', apiKey: providerKey }),
    native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
  };
  kept = await startGateway({ providers, debug: { recentReplies: 2 } });
  off = await startGateway({ providers });
});

afterAll(async () => {
  await Promise.all([kept?.close(), off?.close()]);
  await upstream?.close();
});

async function recent(gateway: StartedGateway) {
  const response = await fetch(`${gateway.baseUrl}/v1/tool-calls/recent`);
  return (await response.json()) as { enabled: boolean; capacity: number; data: Record<string, unknown>[] };
}

async function ask(gateway: StartedGateway, model: string, stream: boolean) {
  const client = gateway.client();
  const body = { model, messages: [{ role: 'user' as const, content: 'Weather?' }], tools: [weather] };
  if (stream) return client.chat.completions.stream(body).finalChatCompletion();
  return client.chat.completions.create(body);
}

describe('recent replies', () => {
  it('keep the raw text next to what the client got, newest first, at most N', async () => {
    upstream.enqueue(
      { type: 'chat', content: 'first' },
      { type: 'chat', content: `Using key ${providerKey}.<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>` },
      { type: 'chat', content: '<tool_call>{"name":"launch_rockets","arguments":{}}</tool_call>' },
    );
    await ask(kept, 'local/qwen3-8b', false);
    await ask(kept, 'local/qwen3-8b', true);
    await ask(kept, 'local/qwen3-8b', false);
    const answer = await recent(kept);
    expect(answer).toMatchObject({ enabled: true, capacity: 2 });
    expect(answer.data).toHaveLength(2);
    const [newest, older] = answer.data;
    expect(newest).toMatchObject({
      model: 'local/qwen3-8b',
      family: 'hermes',
      calls: [],
      diagnostics: { tool_call_error: { code: 'unavailable_tool' } },
    });
    expect(newest?.raw).toContain('launch_rockets');
    expect(older).toMatchObject({
      content: 'Using key [REDACTED].',
      calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      finish_reason: 'tool_calls',
    });
    expect(older?.raw).toBe('Using key [REDACTED].<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>');
    expect(JSON.stringify(answer)).not.toContain(providerKey);
  });

  it('are only prompted-lane replies', async () => {
    upstream.enqueue({ type: 'chat', content: 'native answer' });
    const before = (await recent(kept)).data.map((reply) => reply.id);
    await ask(kept, 'native/gpt-4o-mini', false);
    expect((await recent(kept)).data.map((reply) => reply.id)).toEqual(before);
  });

  it('are off by default', async () => {
    upstream.enqueue({ type: 'chat', content: 'x' });
    await ask(off, 'local/qwen3-8b', false);
    expect(await recent(off)).toEqual({ object: 'list', enabled: false, capacity: 0, data: [] });
  });
});
