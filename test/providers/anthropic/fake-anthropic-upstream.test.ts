/** The scripted fake Anthropic upstream itself, for the parts the adapter tests do not reach. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';

let upstream: FakeAnthropicUpstream;

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream();
});
afterAll(async () => {
  await upstream.close();
});

async function postMessages(body: Record<string, unknown>) {
  const response = await fetch(`${upstream.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-x', max_tokens: 10, messages: [], ...body }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('fake anthropic upstream', () => {
  it('answers non-streaming requests with the whole message', async () => {
    upstream.enqueue({
      type: 'message',
      id: 'msg_whole',
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_use', id: 'toolu_w', name: 'run', input: { command: 'ls' } },
      ],
      usage: { input_tokens: 3, output_tokens: 2 },
    });
    expect(await postMessages({ stream: false })).toEqual({
      status: 200,
      json: {
        id: 'msg_whole',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'tool_use', id: 'toolu_w', name: 'run', input: { command: 'ls' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 2 },
      },
    });
  });

  it('asks the fallback once the queue is empty, and fails loudly without one', async () => {
    upstream.setFallback((request) => {
      const messages = (request.body as { messages: unknown[] }).messages;
      return { type: 'message', content: [{ type: 'text', text: `turns: ${messages.length}` }] };
    });
    expect((await postMessages({ messages: [{ role: 'user', content: 'a' }] })).json.content).toEqual([{ type: 'text', text: 'turns: 1' }]);
    upstream.setFallback(undefined);
    expect(await postMessages({})).toEqual({
      status: 500,
      json: { type: 'error', error: { type: 'api_error', message: 'fake: no scripted reply left' } },
    });
    expect(upstream.messageRequests()).toHaveLength(3);
  });
});
