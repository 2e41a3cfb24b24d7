/** The fake llama-server keeps its sources' defaults: /props, /apply-template, /completion's preserved tokens, parsing with tools. */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from './fake-inference-server.js';
import { startFakeLlamaServer } from './fake-llama-server.js';
import { postJson } from './read-sse.js';
import { scriptedModel } from './scripted-models.js';

const tools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
];
const asked = [{ role: 'user', content: 'Weather in Paris?' }];

let server: FakeInferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(family: string, special = false) {
  server = await startFakeLlamaServer({ model: scriptedModel(family), special });
  const url = server.url;
  return async (path: string, body: unknown) => {
    const response = await postJson(`${url}${path}`, body);
    return { status: response.status, text: response.text, json: () => JSON.parse(response.text) as Record<string, any> };
  };
}

describe('fake llama-server', () => {
  it('describes its template, its capabilities and its build in /props, and lists its model owned_by "llamacpp"', async () => {
    await start('hermes');
    const props = (await (await fetch(`${server?.url}/props`)).json()) as Record<string, any>;
    expect(props.chat_template).toContain('<tool_call>');
    expect(props.chat_template_caps).toMatchObject({ supports_tools: true, supports_tool_calls: true });
    expect(props.build_info).toMatch(/^b\d+/);
    const models = (await (await fetch(`${server?.url}/v1/models`)).json()) as { data: { id: string; owned_by: string }[] };
    expect(models.data[0]).toMatchObject({ id: 'Qwen3-8B-Q4_K_M.gguf', owned_by: 'llamacpp' });
  });

  it('gives its --alias as the model name in /props and /v1/models, the file still in model_path', async () => {
    server = await startFakeLlamaServer({ model: scriptedModel('hermes'), alias: 'my-model' });
    const props = (await (await fetch(`${server.url}/props`)).json()) as Record<string, unknown>;
    expect(props).toMatchObject({ model_alias: 'my-model', model_path: '/models/Qwen3-8B-Q4_K_M.gguf' });
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((entry) => entry.id)).toEqual(['my-model']);
  });

  it('renders a conversation and its tools with the model own template in /apply-template', async () => {
    const post = await start('hermes');
    const { prompt } = (await post('/apply-template', { messages: asked, tools })).json();
    expect(prompt).toContain('<tools>');
    expect(prompt).toContain('"name": "get_weather"');
    expect(prompt.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('without Jinja refuses tools with a 500 on the chat endpoint and /apply-template, and renders messages alone', async () => {
    server = await startFakeLlamaServer({ model: scriptedModel('hermes'), noJinja: true });
    const url = server.url;
    for (const path of ['/v1/chat/completions', '/apply-template']) {
      const refused = await postJson(`${url}${path}`, { messages: asked, tools, tool_choice: 'none' });
      expect(refused.status).toBe(500);
      expect(JSON.parse(refused.text)).toEqual({
        error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' },
      });
    }
    const choiceOnly = await postJson(`${url}/v1/chat/completions`, { messages: asked, tool_choice: 'required' });
    expect(JSON.parse(choiceOnly.text).error.message).toBe('tool_choice param requires --jinja flag');
    const rendered = await postJson(`${url}/apply-template`, { messages: asked });
    expect(rendered.status).toBe(200);
    expect((JSON.parse(rendered.text) as { prompt: string }).prompt).toContain('Weather in Paris?');
  });

  it('parses the call into tool_calls when tools are sent, and strips special tokens when they are not', async () => {
    const post = await start('mistral');
    const parsed = (await post('/v1/chat/completions', { messages: asked, tools })).json().choices[0];
    expect(parsed).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ function: { name: 'get_weather' } }] } });
    const text = (await post('/v1/chat/completions', { messages: [{ role: 'system', content: 'get_weather' }, ...asked] })).json();
    expect(text.choices[0].message.content).toBe('get_weather{"city": "Paris"}');
  });

  it('keeps every special token with --special, the end-of-generation token included', async () => {
    const post = await start('mistral', true);
    const text = (await post('/v1/chat/completions', { messages: [{ role: 'system', content: 'get_weather' }, ...asked] })).json();
    expect(text.choices[0].message.content).toBe('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}</s>');
  });

  it('keeps in /completion only the preserved tokens that are one token each', async () => {
    const post = await start('kimi-k2');
    const reply = (
      await post('/completion', {
        prompt: 'Call get_weather.',
        preserved_tokens: [
          '<|tool_calls_section_begin|>',
          '<|tool_call_begin|>',
          '<|tool_call_argument_begin|>',
          '<|tool_call_end|>',
          'functions.',
        ],
      })
    ).json();
    expect(reply.content).toBe(
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>',
    );
    expect(reply).toMatchObject({ stop: true, stop_type: 'eos' });
    expect(reply.generation_settings.preserved_tokens).not.toContain('functions.');
  });

  it('streams /completion as data events of {content, stop}, the last one stop: true, with no [DONE]', async () => {
    const post = await start('hermes');
    const body = (await post('/completion', { prompt: 'Hello', stream: true })).text;
    const events = body
      .split('\n\n')
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);
    expect(events.slice(0, -1).every((event) => event.stop === false && typeof event.content === 'string')).toBe(true);
    expect(
      events
        .slice(0, -1)
        .map((event) => event.content)
        .join(''),
    ).toBe('It is sunny in Paris.');
    expect(events.at(-1)).toMatchObject({ content: '', stop: true });
    expect(body).not.toContain('[DONE]');
  });

  it('answers errors in its own envelope', async () => {
    const post = await start('hermes');
    expect((await post('/completion', {})).json()).toEqual({
      error: { code: 400, message: '"prompt" must be provided', type: 'invalid_request_error' },
    });
    expect((await post('/nowhere', {})).json()).toEqual({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
  });
});

describe('fake llama-server parallel tool calls', () => {
  const twoCalls = [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { name: 'get_weather', arguments: { city: 'Rome' } },
  ];

  it('returns only the first call unless the request sends parallel_tool_calls: true, its default being false', async () => {
    server = await startFakeLlamaServer({ model: scriptedModel('hermes'), calls: twoCalls });
    const url = server.url;
    const cities = async (extra: Record<string, unknown>) => {
      const reply = JSON.parse((await postJson(`${url}/v1/chat/completions`, { messages: asked, tools, ...extra })).text) as {
        choices: { message: { tool_calls: { function: { arguments: string } }[] } }[];
      };
      return reply.choices[0]?.message.tool_calls.map((call) => (JSON.parse(call.function.arguments) as { city: string }).city);
    };
    expect(await cities({})).toEqual(['Paris']);
    expect(await cities({ parallel_tool_calls: true })).toEqual(['Paris', 'Rome']);
  });
});
