/** Bad input to /v1/chat/completions: 400s (or 404s) in OpenAI's envelope, `param` naming the field, nothing sent upstream. */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../../helpers/gateway-with-openai-upstream.js';
import { postJson } from '../../helpers/read-sse.js';
import { testProvider } from '../../helpers/start-gateway.js';

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  providers: {
    local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
    backup: testProvider('openai', `${upstream.url}/v1`, { apiKey: 'k' }),
  },
}));

type ErrorBody = { error: { message: string; type: string; param: string | null; code: string | null } };

async function rejected(body: unknown, expectedStatus = 400): Promise<ErrorBody['error']> {
  const before = upstream.chatRequests().length;
  const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, body);
  expect(response.status, response.text).toBe(expectedStatus);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const parsed = JSON.parse(response.text) as ErrorBody;
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(typeof parsed.error.message).toBe('string');
  // Rejected before any upstream call.
  expect(upstream.chatRequests().length).toBe(before);
  return parsed.error;
}

const user = { role: 'user', content: 'hi' };
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });

describe('invalid bodies are 400 with param naming the field', () => {
  it.each([
    { title: 'missing messages', body: { model: 'local/m' }, param: 'messages' },
    { title: 'missing model', body: { messages: [user] }, param: 'model' },
    { title: 'messages not an array', body: { model: 'local/m', messages: 'hi' }, param: 'messages' },
    { title: 'empty messages', body: { model: 'local/m', messages: [] }, param: 'messages' },
    { title: 'model not a string', body: { model: 42, messages: [user] }, param: 'model' },
    { title: 'temperature as a string', body: { model: 'local/m', messages: [user], temperature: 'hot' }, param: 'temperature' },
    { title: 'max_tokens not an integer', body: { model: 'local/m', messages: [user], max_tokens: 1.5 }, param: 'max_tokens' },
    { title: 'stream not a boolean', body: { model: 'local/m', messages: [user], stream: 'yes' }, param: 'stream' },
    { title: 'a bad role', body: { model: 'local/m', messages: [user, { role: 'wizard', content: 'x' }] }, param: 'messages[1].role' },
    { title: 'a message without role', body: { model: 'local/m', messages: [{ content: 'x' }] }, param: 'messages[0].role' },
    {
      title: 'content of the wrong type',
      body: { model: 'local/m', messages: [{ role: 'user', content: 7 }] },
      param: 'messages[0].content',
    },
    {
      title: 'a tool message without tool_call_id',
      body: { model: 'local/m', messages: [user, { role: 'tool', content: 'x' }] },
      param: 'messages[1].tool_call_id',
    },
    {
      title: 'a tool without a name',
      body: { model: 'local/m', messages: [user], tools: [{ type: 'function', function: { parameters: { type: 'object' } } }] },
      param: 'tools[0].function.name',
    },
    {
      title: 'a custom (freeform) tool, which Chat Completions here does not take',
      body: { model: 'local/m', messages: [user], tools: [tool('search'), { type: 'custom', custom: { name: 'apply_patch' } }] },
      param: 'tools[1].type',
    },
    {
      title: 'a hosted tool',
      body: { model: 'local/m', messages: [user], tools: [{ type: 'web_search' }] },
      param: 'tools[0].type',
    },
    {
      title: 'a tool call without a function name',
      body: {
        model: 'local/m',
        messages: [user, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }] }],
      },
      param: 'messages[1].tool_calls[0].function.name',
    },
    {
      title: 'a bad tool_choice',
      body: { model: 'local/m', messages: [user], tools: [tool('a')], tool_choice: 'sometimes' },
      param: 'tool_choice',
    },
    {
      title: 'a bad response_format type',
      body: { model: 'local/m', messages: [user], response_format: { type: 'xml' } },
      param: 'response_format.type',
    },
    { title: 'n other than 1', body: { model: 'local/m', messages: [user], n: 3 }, param: 'n' },
  ])('$title', async ({ body, param }) => {
    const error = await rejected(body);
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe(param);
    expect(error.message).toContain(param);
  });

  it('a JSON body that is not an object', async () => {
    const error = await rejected([user]);
    expect(error.type).toBe('invalid_request_error');
  });
});

describe('semantic checks', () => {
  it('duplicate tool names are a 400 naming the second one', async () => {
    const error = await rejected({ model: 'local/m', messages: [user], tools: [tool('search'), tool('fetch'), tool('search')] });
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'tools[2].function.name', code: 'duplicate_tool_name' });
    expect(error.message).toContain("'search'");
  });

  it('a tool_choice naming a tool that was not offered is a 400', async () => {
    const error = await rejected({
      model: 'local/m',
      messages: [user],
      tools: [tool('search')],
      tool_choice: { type: 'function', function: { name: 'delete_everything' } },
    });
    expect(error).toMatchObject({ param: 'tool_choice', code: 'unknown_tool' });
    expect(error.message).toContain('search');
  });

  it.each([
    { field: 'functions', extra: { functions: [{ name: 'search', parameters: { type: 'object' } }] } },
    { field: 'function_call', extra: { function_call: 'auto' } },
  ])("OpenAI's deprecated '$field' is a 400 pointing to tools, not a silent drop", async ({ field, extra }) => {
    const error = await rejected({ model: 'local/m', messages: [user], ...extra });
    expect(error).toMatchObject({ type: 'invalid_request_error', param: field, code: 'unsupported_value' });
    expect(error.message).toContain("'tools'");
  });

  it('tool_choice "required" without tools is a 400', async () => {
    const error = await rejected({ model: 'local/m', messages: [user], tool_choice: 'required' });
    expect(error.param).toBe('tool_choice');
  });
});

describe('malformed JSON', () => {
  it.each([
    ['truncated', '{"model":"local/m","messages":['],
    ['trailing garbage', '{"model":"local/m"} x'],
    ['not JSON at all', 'model=local/m'],
  ])('%s is a 400 in the envelope', async (_title, text) => {
    const error = await rejected(text);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toMatch(/JSON/);
  });

  it('is a 400 whatever content type the client claims', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '{"model":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.type).toBe('invalid_request_error');
  });

  it('an empty body is a 400', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.type).toBe('invalid_request_error');
  });
});

describe('numbers too large for a double', () => {
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify writes upstream as null: no limit, no temperature.
  it.each([
    ['max_tokens', 'an integer field'],
    ['temperature', 'a number field'],
  ])('%s: 1e400 (%s) is a 400 naming the field, nothing sent upstream', async (field) => {
    const error = await rejected(`{"model":"local/m","messages":[{"role":"user","content":"hi"}],"${field}":1e400}`);
    expect(error).toMatchObject({ type: 'invalid_request_error', param: field });
  });
});

describe('model addressing errors', () => {
  it('an unknown provider is a 404 model_not_found listing the configured providers', async () => {
    const error = await rejected({ model: 'nowhere/gpt-4', messages: [user] }, 404);
    expect(error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(error.message).toContain("'nowhere'");
    expect(error.message).toContain('local, backup');
  });

  it('a model without a provider prefix is a 404 listing the providers', async () => {
    const error = await rejected({ model: 'gpt-4', messages: [user] }, 404);
    expect(error.code).toBe('model_not_found');
    expect(error.message).toContain('local, backup');
  });

  it('a provider prefix with no model is a 404', async () => {
    const error = await rejected({ model: 'local/', messages: [user] }, 404);
    expect(error.code).toBe('model_not_found');
  });

  it('an unknown provider on POST /{provider}/v1/chat/completions is a 404 too', async () => {
    const response = await postJson(`${gateway.baseUrl}/nowhere/v1/chat/completions`, { model: 'm', messages: [user] });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('reaches the SDK as NotFoundError', async () => {
    const error = await gateway
      .client()
      .chat.completions.create({ model: 'nowhere/x', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });
});

describe('unknown routes', () => {
  it('are a 404 in the envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ type: 'not_found_error' });
  });
});
