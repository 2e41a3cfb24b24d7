/**
 * Chat Completions through openai-compatible providers whose server is named in config: what reaches the
 * upstream (special tokens kept in the prompted lane, the template rendering tools on vLLM, the servers'
 * own sampling fields passed on) and the structured call the client gets back.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { postJson } from '../../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  const v1 = `${upstream.url}/v1`;
  gateway = await startGateway({
    providers: {
      vllm: testProvider('openai-compatible', v1, { toolCalling: 'prompted', server: 'vllm' }),
      plain: testProvider('openai-compatible', v1, { toolCalling: 'native' }),
      oai: testProvider('openai', v1, { apiKey: 'sk-upstream' }),
    },
  });
  client = gateway.client();
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const tools: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
];
const history: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'user', content: 'Weather in Lyon?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
  { role: 'user', content: 'And Paris?' },
];

describe.each([
  ['whole', false],
  ['streamed', true],
])('vLLM in the prompted lane, %s', (_name, stream) => {
  async function complete(model: string, content: string): Promise<OpenAI.ChatCompletion> {
    upstream.enqueue({ type: 'chat', content, fragmentSize: 2 });
    if (stream) return client.chat.completions.stream({ model, messages: history, tools }).finalChatCompletion();
    return client.chat.completions.create({ model, messages: history, tools });
  }

  it('Qwen3: the template renders tools and history (tool_choice none), markers kept, end-of-turn token dropped', async () => {
    const completion = await complete(
      'vllm/Qwen/Qwen3-8B',
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>',
    );
    const sent = upstream.lastChatBody();
    expect(sent).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
      tool_choice: 'none',
      skip_special_tokens: false,
      spaces_between_special_tokens: false,
    });
    expect(sent.messages).toEqual([
      { role: 'user', content: 'Weather in Lyon?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      { role: 'user', content: 'And Paris?' },
    ]);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls?.map((call) => (call as OpenAI.ChatCompletionMessageFunctionToolCall).function)).toEqual([
      { name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    expect(choice.message.content ?? '').not.toContain('<|im_end|>');
  });

  it('gpt-oss: our rendering (its template is Harmony), markers kept and read', async () => {
    const completion = await complete(
      'vllm/openai/gpt-oss-20b',
      '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
    );
    const sent = upstream.lastChatBody();
    expect(sent).not.toHaveProperty('tools');
    expect(sent).toMatchObject({ skip_special_tokens: false, spaces_between_special_tokens: false });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect((choice.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall).function).toEqual({
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
  });
});

describe('the servers’ own sampling fields', () => {
  const fields = { top_k: 20, min_p: 0, repetition_penalty: 1.05, skip_special_tokens: false, spaces_between_special_tokens: false };

  it('pass through to an openai-compatible upstream exactly', async () => {
    upstream.enqueue({ type: 'chat', content: 'ok' });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'plain/m',
      messages: [{ role: 'user', content: 'hi' }],
      ...fields,
    });
    expect(response.status, response.text).toBe(200);
    expect(upstream.lastChatBody()).toMatchObject(fields);
    expect(JSON.parse(response.text)).not.toHaveProperty('diagnostics');
  });

  it('are not sent to OpenAI itself, and the reply says so', async () => {
    upstream.enqueue({ type: 'chat', content: 'ok' });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'oai/gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
      top_k: 20,
    });
    expect(response.status, response.text).toBe(200);
    expect(upstream.lastChatBody()).not.toHaveProperty('top_k');
    expect(JSON.parse(response.text).diagnostics.warnings).toEqual([
      { code: 'unsupported-parameter', message: "'top_k' is a vLLM/llama.cpp field that OpenAI does not take; it was not sent." },
    ]);
  });
});
