/** POST /v1/messages without `stream` (Claude Code's fallback) and POST /v1/messages/count_tokens. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesBody, post, providers, startMessagesKit, type MessagesKit } from './messages-test-kit.js';

let kit: MessagesKit;
let baseUrl: string;

beforeAll(async () => {
  kit = await startMessagesKit();
  baseUrl = kit.gateway.baseUrl;
});

afterAll(async () => {
  await kit?.close();
});

const tools = [
  { name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
];

describe('the Message object', () => {
  it('has exactly Anthropic fields: thinking, text and tool_use blocks, stop_reason tool_use, usage', async () => {
    kit.openai.enqueue({
      type: 'chat',
      reasoning: 'Plan.',
      content: 'I will run a command.',
      toolCalls: [
        { id: 'call_1', name: 'Bash', arguments: { command: 'ls -la' } },
        { id: 'call_2', name: 'Bash', arguments: { command: 'pwd' } },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 10 },
    });
    const response = await post(`${baseUrl}/v1/messages?beta=true`, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { tools }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-tool-calling')).toBe('native');
    const message = JSON.parse(response.text) as Record<string, unknown>;
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      model: `${providers.openai}/Qwen/Qwen3-8B`,
      content: [
        { type: 'thinking', thinking: 'Plan.', signature: '' },
        { type: 'text', text: 'I will run a command.' },
        { type: 'tool_use', id: 'call_1', name: 'Bash', input: { command: 'ls -la' } },
        { type: 'tool_use', id: 'call_2', name: 'Bash', input: { command: 'pwd' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 10 },
    });
  });

  it('an Anthropic upstream reply folds back to the same blocks, signature included', async () => {
    kit.anthropic.enqueue({
      type: 'message',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'c2ln' },
        { type: 'text', text: 'Answer.' },
      ],
      usage: { input_tokens: 9, output_tokens: 4 },
    });
    const response = await post(`${baseUrl}/v1/messages`, messagesBody(`${providers.anthropic}/claude-sonnet-4-5`));
    expect(JSON.parse(response.text)).toMatchObject({
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'c2ln' },
        { type: 'text', text: 'Answer.' },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 9, output_tokens: 4 },
    });
  });

  it('an upstream refusal maps to stop_reason refusal', async () => {
    kit.openai.enqueue({ type: 'chat', content: 'no', finishReason: 'content_filter' });
    const response = await post(`${baseUrl}/v1/messages`, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`));
    expect(JSON.parse(response.text)).toMatchObject({ stop_reason: 'refusal' });
  });

  it('carries gateway diagnostics as a top-level extension field when there are any', async () => {
    kit.openai.enqueue({ type: 'chat', content: 'ok' });
    // A server tool (Anthropic runs web search itself) cannot go to this upstream: said in diagnostics.
    const response = await post(
      `${baseUrl}/v1/messages`,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }),
    );
    const message = JSON.parse(response.text) as Record<string, unknown>;
    expect(message.diagnostics).toEqual({
      warnings: [expect.objectContaining({ code: 'unsupported-tool', message: expect.stringContaining('web_search') })],
    });
  });

  it('a plain reply has no diagnostics field at all', async () => {
    kit.openai.enqueue({ type: 'chat', content: 'ok' });
    const response = await post(`${baseUrl}/v1/messages`, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`));
    expect(JSON.parse(response.text)).not.toHaveProperty('diagnostics');
  });
});

describe('count_tokens', () => {
  const body = {
    model: `${providers.openai}/Qwen/Qwen3-8B`,
    system: 'x'.repeat(400),
    messages: [
      { role: 'user', content: 'y'.repeat(398) },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
    ],
  };

  it('answers {"input_tokens": N}, about characters / 4, without calling the upstream', async () => {
    const before = kit.openai.chatRequests().length;
    const response = await post(`${baseUrl}/v1/messages/count_tokens?beta=true`, body);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-token-count')).toBe('estimate');
    // 400 + 398 + "Bash" (4) + "{}" (2) = 804 characters → 201 tokens.
    expect(JSON.parse(response.text)).toEqual({ input_tokens: 201 });
    expect(kit.openai.chatRequests().length).toBe(before);
  });

  it('grows with the tools offered', async () => {
    const without = JSON.parse((await post(`${baseUrl}/v1/messages/count_tokens`, body)).text) as { input_tokens: number };
    const withTools = JSON.parse((await post(`${baseUrl}/v1/messages/count_tokens`, { ...body, tools })).text) as { input_tokens: number };
    expect(withTools.input_tokens).toBeGreaterThan(without.input_tokens);
  });

  it('works under /{provider}/v1/messages/count_tokens and 404s an unknown model', async () => {
    const scoped = await post(`${baseUrl}/${providers.anthropic}/v1/messages/count_tokens`, { ...body, model: 'claude-opus-4-8' });
    expect(JSON.parse(scoped.text)).toEqual({ input_tokens: 201 });
    const unknown = await post(`${baseUrl}/v1/messages/count_tokens`, { ...body, model: 'nowhere/x' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text)).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('a body without messages is a 400 in the Anthropic envelope', async () => {
    const response = await post(`${baseUrl}/v1/messages/count_tokens`, { model: body.model });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('messages') },
    });
  });
});
