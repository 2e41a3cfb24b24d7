/** The fake vLLM and SGLang servers keep their sources' defaults: identification, the tools 400, special tokens, parsing. */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from './fake-inference-server.js';
import { startFakeSglangServer } from './fake-sglang-server.js';
import { startFakeVllmServer, type FakeVllmOptions } from './fake-vllm-server.js';
import { postJson, sseChunks } from './read-sse.js';
import { scriptedModel } from './scripted-models.js';

const tools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
];
const askedInText = [
  { role: 'system', content: 'You can call get_weather.' },
  { role: 'user', content: 'Weather in Paris?' },
];
const asked = [{ role: 'user', content: 'Weather in Paris?' }];

let server: FakeInferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function vllm(family: string, options: Omit<FakeVllmOptions, 'model'> = {}) {
  const model = scriptedModel(family);
  server = await startFakeVllmServer({ model, ...options });
  const chat = async (body: Record<string, unknown>) => {
    const response = await postJson(`${server?.url}/v1/chat/completions`, { model: model.id, ...body });
    return { status: response.status, body: JSON.parse(response.text) as Record<string, any>, text: response.text };
  };
  return { model, chat };
}

describe('fake vLLM', () => {
  it('identifies itself by /version and owned_by "vllm"', async () => {
    await vllm('hermes');
    expect(await (await fetch(`${server?.url}/version`)).json()).toEqual({ version: expect.any(String) });
    const models = (await (await fetch(`${server?.url}/v1/models`)).json()) as { data: { id: string; owned_by: string }[] };
    expect(models.data).toEqual([expect.objectContaining({ id: 'Qwen/Qwen3-8B', owned_by: 'vllm' })]);
  });

  it('lists --served-model-name as the id with the loaded path as root, and answers only to that name', async () => {
    const { model } = await vllm('hermes', { servedModelName: 'my-model' });
    const models = (await (await fetch(`${server?.url}/v1/models`)).json()) as { data: { id: string; root: string }[] };
    expect(models.data).toEqual([expect.objectContaining({ id: 'my-model', root: model.id })]);
    const byPath = await postJson(`${server?.url}/v1/chat/completions`, { model: model.id, messages: asked });
    expect(byPath.status).toBe(404);
    expect((await postJson(`${server?.url}/v1/chat/completions`, { model: 'my-model', messages: asked })).status).toBe(200);
  });

  it('answers tools with tool_choice auto, without a parser, with its exact 400', async () => {
    const { chat } = await vllm('hermes');
    const reply = await chat({ messages: asked, tools });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({
      message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
    expect((await chat({ messages: asked, tools, tool_choice: 'required' })).body.error.message).toBe(
      'tool_choice="required" requires --tool-call-parser to be set',
    );
  });

  it('does not refuse Mistral tokenizers, and keeps their [TOOL_CALLS] while dropping [ARGS]', async () => {
    const { chat } = await vllm('mistral');
    const reply = await chat({ messages: asked, tools });
    expect(reply.status).toBe(200);
    expect(reply.body.choices[0].message.content).toBe('[TOOL_CALLS]get_weather{"city": "Paris"}');
  });

  it('removes special tokens unless skip_special_tokens is false, and spaces them in slow tokenizers by default', async () => {
    const { chat } = await vllm('kimi-k2');
    expect((await chat({ messages: askedInText })).body.choices[0].message.content).toBe('functions.get_weather:0{"city": "Paris"}');
    expect((await chat({ messages: askedInText, skip_special_tokens: false })).body.choices[0].message.content).toBe(
      '<|tool_calls_section_begin|> <|tool_call_begin|> functions.get_weather:0 <|tool_call_argument_begin|> {"city": "Paris"} <|tool_call_end|> <|tool_calls_section_end|>',
    );
    const kept = await chat({ messages: askedInText, skip_special_tokens: false, spaces_between_special_tokens: false });
    expect(kept.body.choices[0].message.content).toContain('<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>');
    expect(kept.body.choices[0].finish_reason).toBe('stop');
  });

  it('parses gpt-oss from its tokens without a parser: the analysis is reasoning, the recipient is lost', async () => {
    const { chat } = await vllm('harmony');
    const message = (await chat({ messages: asked, tools })).body.choices[0].message;
    expect(message).toMatchObject({ reasoning: 'Need the weather.', content: '{"city": "Paris"}' });
    expect(message.tool_calls).toBeUndefined();
  });

  it('returns structured tool_calls, whole and streamed, when started with a tool parser', async () => {
    const { chat, model } = await vllm('hermes', { toolCallParser: true });
    const whole = (await chat({ messages: asked, tools })).body.choices[0];
    expect(whole.finish_reason).toBe('tool_calls');
    expect(whole.message.tool_calls[0].function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    const streamed = sseChunks(
      (await postJson(`${server?.url}/v1/chat/completions`, { model: model.id, messages: asked, tools, stream: true })).text,
    );
    const fragments = streamed.flatMap((chunk: any) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments[0].function.name).toBe('get_weather');
    expect(fragments.map((fragment: any) => fragment.function.arguments).join('')).toBe('{"city":"Paris"}');
    expect(streamed.at(-1)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
  });

  it('renders tools for tool_choice "none" unless started with --exclude-tools-when-tool-choice-none', async () => {
    const { chat } = await vllm('hermes');
    expect((await chat({ messages: asked, tools, tool_choice: 'none' })).body.choices[0].message.content).toContain('<tool_call>');
    await server?.close();
    const excluded = await vllm('hermes', { excludeToolsWhenToolChoiceNone: true });
    expect((await excluded.chat({ messages: asked, tools, tool_choice: 'none' })).body.choices[0].message.content).toBe(
      'It is sunny in Paris.',
    );
  });

  it('answers an unknown model with 404', async () => {
    const { chat } = await vllm('hermes');
    expect((await chat({ model: 'other', messages: asked })).status).toBe(404);
  });
});

describe('fake SGLang', () => {
  it('identifies itself by /get_model_info and owned_by "sglang", and returns tools as text without a parser', async () => {
    const model = scriptedModel('kimi-k2');
    server = await startFakeSglangServer({ model });
    expect(await (await fetch(`${server.url}/get_model_info`)).json()).toMatchObject({ model_path: model.id });
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { owned_by: string }[] };
    expect(models.data[0]?.owned_by).toBe('sglang');
    const reply = await postJson(`${server.url}/v1/chat/completions`, { model: model.id, messages: asked, tools });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).choices[0].message.content).toBe('functions.get_weather:0{"city": "Paris"}');
  });
});
