/** Errors on /v1/messages: Anthropic's envelope `{"type":"error","error":{type,message}}` with honest statuses. */
import { describe, expect, it } from 'vitest';
import { messagesBody, post, providers, startMessagesKit, useMessagesKit } from './messages-test-kit.js';

const messagesKit = useMessagesKit();

type Envelope = { type: string; error: { type: string; message: string } };

function envelope(text: string): Envelope {
  const body = JSON.parse(text) as Envelope;
  expect(Object.keys(body).sort()).toEqual(['error', 'type']);
  expect(body.type).toBe('error');
  expect(Object.keys(body.error).sort()).toEqual(['message', 'type']);
  return body;
}

const model = `${providers.openai}/Qwen/Qwen3-8B`;

describe('400 bad input names the field', () => {
  it.each([
    ['max_tokens missing', { model, messages: [{ role: 'user', content: 'hi' }] }, 'max_tokens'],
    ['model missing', { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, 'model'],
    ['a bad role', messagesBody(model, { messages: [{ role: 'tool', content: 'hi' }] }), 'messages[0].role'],
    [
      'a text block without text',
      messagesBody(model, { messages: [{ role: 'user', content: [{ type: 'text' }] }] }),
      'messages[0].content[0].text',
    ],
    [
      'a tool_use without input',
      messagesBody(model, { messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x' }] }] }),
      'messages[0].content[0].input',
    ],
    [
      'a tool_result without its id',
      messagesBody(model, { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }),
      'tool_use_id',
    ],
    ['a custom tool without input_schema', messagesBody(model, { tools: [{ name: 'Bash' }] }), 'tools[0].input_schema'],
    ['an unknown tool_choice type', messagesBody(model, { tool_choice: { type: 'function' } }), 'tool_choice.type'],
    ['a named tool_choice without a name', messagesBody(model, { tool_choice: { type: 'tool' } }), 'tool_choice.name'],
    ['max_tokens as a string', messagesBody(model, { max_tokens: '100' }), 'max_tokens'],
  ])('%s', async (_label, body, field) => {
    const response = await post(messagesKit.url, body);
    expect(response.status).toBe(400);
    const { error } = envelope(response.text);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toContain(field);
  });

  it("tool_choice 'any' with only server tools is a 400 in Anthropic's terms", async () => {
    const response = await post(
      messagesKit.url,
      messagesBody(model, { tools: [{ type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'any' } }),
    );
    expect(response.status).toBe(400);
    expect(envelope(response.text).error.message).toContain("tool_choice 'any'");
  });

  it('an image from the Files API (source type file) is a 400 naming the field', async () => {
    const response = await post(
      messagesKit.url,
      messagesBody(model, { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] }] }),
    );
    expect(response.status).toBe(400);
    expect(envelope(response.text).error.message).toContain('messages[0].content[0].source.type');
  });

  it('malformed JSON is a 400 in the Anthropic envelope', async () => {
    const response = await post(messagesKit.url, '{"model": ');
    expect(response.status).toBe(400);
    expect(envelope(response.text).error.type).toBe('invalid_request_error');
  });

  it('a tool_choice naming a tool that is not offered is a 400', async () => {
    const response = await post(
      messagesKit.url,
      messagesBody(model, { tools: [{ name: 'Bash', input_schema: { type: 'object' } }], tool_choice: { type: 'tool', name: 'Edit' } }),
    );
    expect(response.status).toBe(400);
    expect(envelope(response.text).error.message).toContain('Edit');
  });

  it('unknown top-level fields are ignored, never rejected', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    const response = await post(
      messagesKit.url,
      messagesBody(model, { output_config: { effort: 'high' }, context_management: {}, service_tier: 'auto', container: null }),
    );
    expect(response.status).toBe(200);
  });
});

describe('404', () => {
  it('an unknown provider prefix is a not_found_error', async () => {
    const response = await post(messagesKit.url, messagesBody('nowhere/some-model'));
    expect(response.status).toBe(404);
    const { error } = envelope(response.text);
    expect(error.type).toBe('not_found_error');
    expect(error.message).toContain('nowhere');
  });

  it('a model without a provider prefix (Claude Code default) is a not_found_error', async () => {
    const response = await post(messagesKit.url, messagesBody('claude-opus-4-8', { stream: true }));
    expect(response.status).toBe(404);
    expect(envelope(response.text).error.type).toBe('not_found_error');
  });

  it('an unknown /v1/messages sub-route answers in the Anthropic envelope', async () => {
    const response = await post(`${messagesKit.kit.gateway.baseUrl}/v1/messages/batches`, {});
    expect(response.status).toBe(404);
    expect(envelope(response.text).error.type).toBe('not_found_error');
  });
});

describe('upstream failures before the first byte', () => {
  it('an upstream 429 stays a 429 rate_limit_error with retry-after, even for a streaming request', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'http-error', status: 429, message: 'slow down', headers: { 'retry-after': '7' } });
    const response = await post(messagesKit.url, messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, { stream: true }));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(envelope(response.text).error).toEqual({ type: 'rate_limit_error', message: 'slow down' });
  });

  it('an upstream 400 is kept as a 400 invalid_request_error', async () => {
    messagesKit.kit.openai.enqueue({ type: 'http-error', status: 400, message: 'context too long' });
    const response = await post(messagesKit.url, messagesBody(model));
    expect(response.status).toBe(400);
    expect(envelope(response.text).error).toEqual({ type: 'invalid_request_error', message: 'context too long' });
  });

  it('an upstream 500 is passed on as an api_error', async () => {
    messagesKit.kit.openai.enqueue({ type: 'http-error', status: 500, errorType: 'server_error', message: 'boom' });
    const response = await post(messagesKit.url, messagesBody(model, { stream: true }));
    expect(response.status).toBe(500);
    expect(envelope(response.text).error.type).toBe('api_error');
  });

  it("an upstream 529 and 413 keep Anthropic's own types (overloaded_error, request_too_large)", async () => {
    messagesKit.kit.openai.enqueue({ type: 'http-error', status: 529, errorType: 'server_error', message: 'busy' });
    const overloaded = await post(messagesKit.url, messagesBody(model));
    expect(overloaded.status).toBe(529);
    expect(envelope(overloaded.text).error.type).toBe('overloaded_error');
    messagesKit.kit.openai.enqueue({ type: 'http-error', status: 413, message: 'prompt is too long' });
    const tooLarge = await post(messagesKit.url, messagesBody(model));
    expect(tooLarge.status).toBe(413);
    expect(envelope(tooLarge.text).error).toEqual({ type: 'request_too_large', message: 'prompt is too long' });
  });

  it('a non-streaming request whose upstream fails mid-body is a 502 in the envelope', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'abcdefghij', cutAfterChunks: 3 });
    const response = await post(messagesKit.url, messagesBody(model));
    expect(response.status).toBe(502);
    expect(envelope(response.text).error.type).toBe('api_error');
  });
});

describe('client authentication', () => {
  it('a missing or wrong key is a 401 authentication_error; x-api-key and Bearer both work', async () => {
    const guarded = await startMessagesKit({ apiKeys: ['sk-gateway'] });
    try {
      const guardedUrl = `${guarded.gateway.baseUrl}/v1/messages?beta=true`;
      const missing = await post(guardedUrl, messagesBody(model));
      expect(missing.status).toBe(401);
      expect(envelope(missing.text).error.type).toBe('authentication_error');
      const wrong = await post(guardedUrl, messagesBody(model), { 'x-api-key': 'sk-wrong' });
      expect(wrong.status).toBe(401);
      guarded.openai.enqueue({ type: 'chat', content: 'ok' }, { type: 'chat', content: 'ok' });
      expect((await post(guardedUrl, messagesBody(model), { 'x-api-key': 'sk-gateway' })).status).toBe(200);
      expect((await post(guardedUrl, messagesBody(model), { authorization: 'Bearer sk-gateway' })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
