/**
 * What each adapter sends upstream for one Chat Completions body: fields forwarded exactly (0, false and
 * null kept), unknown top-level fields ignored, unsupported parameters reported as warnings, model addressing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { postJson, sseChunks } from '../../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let openai: FakeOpenAiUpstream;
let anthropic: FakeAnthropicUpstream;
let ollama: FakeOllamaUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  [openai, anthropic, ollama] = await Promise.all([startFakeOpenAiUpstream(), startFakeAnthropicUpstream(), startFakeOllamaUpstream()]);
  gateway = await startGateway({
    providers: {
      oai: testProvider('openai', `${openai.url}/v1`, { apiKey: 'sk-upstream', headers: { 'x-org-tag': 'interlingua-tests' } }),
      local: testProvider('openai-compatible', `${openai.url}/v1`, { toolCalling: 'native' }),
      claude: testProvider('anthropic', anthropic.url, { apiKey: 'sk-ant-upstream' }),
      home: testProvider('ollama', ollama.url, { toolCalling: 'native' }),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openai?.close(), anthropic?.close(), ollama?.close()]);
});

const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

/** A schema every adapter can send natively (a free-form object would go into Claude's prompt instead). */
const answerSchema = { type: 'object', properties: { answer: { type: 'string' } } };

/** Every field the adapter forwards, with the values that naive code loses (0, false, null). */

const forwardedFields: Record<string, unknown> = {
  messages: [
    { role: 'system', content: 'Be terse.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_prev', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_prev', content: '18°C' },
    { role: 'user', content: 'And Paris?' },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: weatherSchema, strict: true } }],
  tool_choice: { type: 'function', function: { name: 'get_weather' } },
  parallel_tool_calls: false,
  temperature: 0,
  top_p: null,
  presence_penalty: 0,
  frequency_penalty: 0,
  seed: 0,
  max_completion_tokens: 300,
  stop: ['END'],
  response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: answerSchema, strict: true } },
  reasoning_effort: 'low',
  user: 'user-42',
  logit_bias: { '50256': -100 },
  store: false,
};

function fullBody(model: string): Record<string, unknown> {
  return {
    model,
    ...forwardedFields,
    // Unknown top-level fields: real clients send extras like these; they are ignored, never forwarded.
    client_metadata: { session: 'abc' },
    frobnicate: true,
  };
}

type Warnings = { code: string; message: string }[] | undefined;

async function completion(model: string, body: Record<string, unknown> = fullBody(model), path = '/v1/chat/completions') {
  const response = await postJson(`${gateway.baseUrl}${path}`, body);
  expect(response.status, response.text).toBe(200);
  return JSON.parse(response.text) as { model: string; diagnostics?: { warnings?: Warnings } };
}

describe('the openai adapter', () => {
  it('forwards every request field exactly and nothing unknown', async () => {
    // JSON, as the request's response_format asks: the gateway checks the reply against it.
    openai.enqueue({ type: 'chat', content: '{}' });
    const body = await completion('oai/gpt-4.1');
    const sent = openai.lastChatBody();
    expect(sent).toEqual({
      model: 'gpt-4.1',
      ...forwardedFields,
      // A non-streaming client: the upstream is asked for one whole body too.
      stream: false,
    });
    expect(body.diagnostics).toBeUndefined();
  });

  it('authenticates with the configured key and headers, never the client key', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' });
    await postJson(
      `${gateway.baseUrl}/v1/chat/completions`,
      { model: 'oai/gpt-4.1', messages: [{ role: 'user', content: 'hi' }] },
      { authorization: 'Bearer client-secret' },
    );
    const headers = openai.chatRequests().at(-1)?.headers;
    expect(headers?.authorization).toBe('Bearer sk-upstream');
    expect(headers?.['x-org-tag']).toBe('interlingua-tests');
  });

  it('sends no Authorization at all to a provider without a key', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' });
    await postJson(
      `${gateway.baseUrl}/v1/chat/completions`,
      { model: 'local/m', messages: [{ role: 'user', content: 'hi' }] },
      { authorization: 'Bearer client-secret' },
    );
    expect(openai.chatRequests().at(-1)?.headers.authorization).toBeUndefined();
  });

  it('keeps false and null for tool fields and a named tool_choice of "required"', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' });
    await completion('oai/gpt-4.1', {
      model: 'oai/gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }],
      tool_choice: 'required',
      parallel_tool_calls: null,
      max_tokens: 0,
      stop: 'STOP',
    });
    expect(openai.lastChatBody()).toMatchObject({
      tool_choice: 'required',
      parallel_tool_calls: null,
      max_completion_tokens: 0,
      stop: ['STOP'],
    });
  });
});

describe('the openai-compatible adapter', () => {
  it('sends max_tokens (what compatible servers know) and the model after the provider prefix', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' });
    const body = await completion('local/Qwen/Qwen3-8B');
    const sent = openai.lastChatBody();
    expect(sent.model).toBe('Qwen/Qwen3-8B');
    expect(sent.max_tokens).toBe(300);
    expect(sent).not.toHaveProperty('max_completion_tokens');
    expect(sent).toMatchObject({
      temperature: 0,
      seed: 0,
      top_p: null,
      parallel_tool_calls: false,
      logit_bias: { '50256': -100 },
      store: false,
    });
    expect(sent).not.toHaveProperty('client_metadata');
    expect(sent).not.toHaveProperty('frobnicate');
    expect(body.model).toBe('local/Qwen/Qwen3-8B');
  });

  // A client that writes every field (null for the ones it leaves unset) sent max_tokens 100 beside
  // max_completion_tokens null: the null won, the upstream got no limit, and the budget reserved 4,096.
  it('keeps max_tokens when max_completion_tokens is null (unset), and null when both are', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' }, { type: 'chat', content: 'ok' });
    const messages = [{ role: 'user', content: 'hi' }];
    await completion('local/m', { model: 'local/m', messages, max_tokens: 100, max_completion_tokens: null });
    expect(openai.lastChatBody().max_tokens).toBe(100);
    await completion('local/m', { model: 'local/m', messages, max_tokens: null, max_completion_tokens: null });
    expect(openai.lastChatBody()).toHaveProperty('max_tokens', null);
  });

  it('takes the model whole on POST /{provider}/v1/chat/completions', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' }, { type: 'chat', content: 'ok' });
    const body = await completion(
      'Qwen/Qwen3-8B',
      { model: 'Qwen/Qwen3-8B', messages: [{ role: 'user', content: 'hi' }] },
      '/local/v1/chat/completions',
    );
    expect(openai.lastChatBody().model).toBe('Qwen/Qwen3-8B');
    expect(body.model).toBe('Qwen/Qwen3-8B');
    // A model that starts with another provider's name is still taken whole.
    await completion(
      'oai/looks-prefixed',
      { model: 'oai/looks-prefixed', messages: [{ role: 'user', content: 'hi' }] },
      '/local/v1/chat/completions',
    );
    expect(openai.lastChatBody().model).toBe('oai/looks-prefixed');
  });
});

describe('tool_choice allowed_tools', () => {
  const functionTool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });

  it('offers only the allowed functions, with the mode as tool_choice', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' });
    await completion('local/Qwen/Qwen3-8B', {
      model: 'local/Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [functionTool('get_weather'), functionTool('delete_file'), functionTool('get_time')],
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: {
          mode: 'required',
          tools: [
            { type: 'function', function: { name: 'get_weather' } },
            { type: 'function', name: 'get_time' },
          ],
        },
      },
    });
    const sent = openai.lastChatBody();
    expect((sent.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(['get_weather', 'get_time']);
    expect(sent.tool_choice).toBe('required');
  });

  it('refuses a name that is not among the tools, rather than offering nothing', async () => {
    const before = openai.chatRequests().length;
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'local/Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [functionTool('get_weather')],
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'rm_rf' } }] } },
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ error: { type: 'invalid_request_error', param: 'tool_choice.tools' } });
    expect(openai.chatRequests().length).toBe(before);
  });
});

describe('the anthropic adapter', () => {
  it('translates the request and warns about every parameter it cannot send', async () => {
    anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{}' }] });
    const body = await completion('claude/claude-sonnet-4-5');
    const sent = anthropic.messageRequests().at(-1)?.body as Record<string, unknown>;
    expect(sent).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 300,
      system: 'Be terse.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_prev', name: 'get_weather', input: { city: 'Lyon' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_prev', content: '18°C' },
            { type: 'text', text: 'And Paris?' },
          ],
        },
      ],
      // Strict, as the client asked: Claude 4.5 takes strict tools, with the schema closed as its grammar requires.
      tools: [
        {
          name: 'get_weather',
          description: 'Weather by city',
          input_schema: { ...weatherSchema, additionalProperties: false },
          strict: true,
        },
      ],
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      temperature: 0,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-42' },
      // response_format json_schema as Anthropic's structured outputs.
      // Closed, as Claude's grammar requires every object to be (grammar-schema-subset.ts).
      output_config: { format: { type: 'json_schema', schema: { ...answerSchema, additionalProperties: false } } },
      // A non-streaming client: the upstream is asked for one whole message too.
      stream: false,
    });
    const warnings = body.diagnostics?.warnings ?? [];
    for (const parameter of ['seed', 'presence_penalty', 'frequency_penalty', 'reasoning_effort', 'logit_bias', 'store']) {
      expect(
        warnings.some((warning) => warning.message.includes(parameter)),
        parameter,
      ).toBe(true);
    }
    const warned = warnings.map((warning) => warning.message).join('\n');
    expect(warned).not.toContain('client_metadata');
    expect(warned).not.toContain('frobnicate');
  });

  it('keeps cache_control on content parts (as OpenRouter takes it for Claude) as Anthropic cache breakpoints', async () => {
    anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const ephemeral = { type: 'ephemeral' };
    await completion('claude/claude-sonnet-4-5', {
      model: 'claude/claude-sonnet-4-5',
      max_tokens: 50,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'A long, stable system prompt.', cache_control: ephemeral }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A long document.', cache_control: ephemeral },
            { type: 'text', text: 'The question.' },
          ],
        },
      ],
    });
    const sent = anthropic.messageRequests().at(-1)?.body as Record<string, unknown>;
    expect(sent.system).toEqual([{ type: 'text', text: 'A long, stable system prompt.', cache_control: ephemeral }]);
    expect(sent.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'A long document.', cache_control: ephemeral },
          { type: 'text', text: 'The question.' },
        ],
      },
    ]);
  });

  it('uses the provider default for max_tokens with a warning that says so', async () => {
    anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const body = await completion('claude/claude-sonnet-4-5', {
      model: 'claude/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(anthropic.messageRequests().at(-1)?.body).toMatchObject({ max_tokens: 4096 });
    expect(body.diagnostics?.warnings).toEqual([expect.objectContaining({ code: 'max-tokens-defaulted' })]);
  });

  it('puts the warnings on the last chunk when streaming', async () => {
    anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'claude/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'hi' }],
      seed: 7,
      max_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = sseChunks(response.text);
    expect(chunks.slice(0, -1).some((chunk) => 'diagnostics' in chunk)).toBe(false);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      diagnostics: { warnings: [{ code: 'unsupported-parameter', message: expect.stringContaining("'seed'") }] },
    });
  });
});

describe('the ollama adapter', () => {
  it('translates the request into /api/chat and warns about what Ollama cannot take', async () => {
    ollama.enqueue({ type: 'chat', content: 'ok' });
    const body = await completion('home/qwen3:8b');
    const sent = ollama.requests.filter((request) => request.path === '/api/chat').at(-1)?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'qwen3:8b',
      // A non-streaming client: the upstream is asked for one whole reply too.
      stream: false,
      format: answerSchema,
      think: 'low',
      options: { temperature: 0, seed: 0, num_predict: 300, stop: ['END'], presence_penalty: 0, frequency_penalty: 0 },
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: weatherSchema } }],
    });
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'Weather in Paris?' },
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [expect.objectContaining({ function: expect.objectContaining({ name: 'get_weather', arguments: { city: 'Lyon' } }) })],
      }),
      expect.objectContaining({ role: 'tool', content: '18°C' }),
      { role: 'user', content: 'And Paris?' },
    ]);
    expect(sent).not.toHaveProperty('client_metadata');
    expect(sent).not.toHaveProperty('logit_bias');
    const warned = (body.diagnostics?.warnings ?? []).map((warning) => warning.message).join('\n');
    for (const parameter of ['user', 'logit_bias', 'store']) expect(warned).toContain(`'${parameter}'`);
    expect(warned).not.toContain('frobnicate');
  });
});

describe('unknown top-level fields', () => {
  it('are accepted on every route without a warning', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' });
    const body = await completion('local/m', {
      model: 'local/m',
      messages: [{ role: 'user', content: 'hi' }],
      client_metadata: { a: 1 },
      x_custom: [1, 2],
    });
    expect(body.diagnostics).toBeUndefined();
    expect(Object.keys(openai.lastChatBody()).sort()).toEqual(['messages', 'model', 'stream']);
  });

  it('asks the upstream for logprobs as the client did, and says nothing (they come back: logprobs.test.ts)', async () => {
    openai.enqueue({ type: 'chat', content: 'ok' });
    const body = await completion('local/m', {
      model: 'local/m',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(openai.lastChatBody()).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(body.diagnostics).toBeUndefined();
  });
});
