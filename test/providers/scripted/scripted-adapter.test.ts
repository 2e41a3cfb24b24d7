/**
 * The scripted provider through the gateway with the real `openai` client: the demo model calls the first
 * tool in its family's syntax (parsed back in the prompted lane, structured in the native lane), and a
 * script file's turns are replayed by position in the conversation.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type OpenAI from 'openai';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../../src/config/validate-config-file.js';
import { startGateway, type StartedGateway } from '../../helpers/start-gateway.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

const weather: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather for a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
    },
  },
};
const ask: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];

let directory: string;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'scripted-'));
  const script = join(directory, 'script.yaml');
  await writeFile(
    script,
    [
      'models: [qwen3-coder-30b-a3b-instruct]',
      'turns:',
      '  - content: Looking it up.',
      '    toolCalls: [{ name: get_weather, arguments: { city: Berlin, unit: celsius } }]',
      '  - content: It is 21 degrees in Berlin.',
    ].join('\n'),
  );
  await writeFile(
    join(directory, 'failing.json'),
    JSON.stringify({ turns: [{ error: { status: 503, message: 'the scripted upstream is down' } }] }),
  );
  gateway = await startGateway({
    providers: {
      demo: { type: 'scripted' },
      replay: { type: 'scripted', script, toolCalling: 'prompted' },
      failing: { type: 'scripted', script: join(directory, 'failing.json') },
    },
  });
  client = gateway.client();
});

afterAll(async () => {
  await gateway?.close();
});

describe('the demo model', () => {
  it('calls the first tool in Hermes syntax, parsed back into tool_calls in the prompted lane (streamed)', async () => {
    const stream = client.chat.completions.stream({ model: 'demo/qwen3-8b', messages: ask, tools: [weather] });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse((message?.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments)).toEqual({
      city: 'Paris',
      unit: 'celsius',
    });
    expect(message?.content?.trim()).toBe("I'll call get_weather.");
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('says which lane and family answered, and gives the same call whole', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'demo/qwen3-8b', messages: ask, tools: [weather] })
      .withResponse();
    expect(response.headers.get('x-tool-calling')).toBe('prompted');
    expect(response.headers.get('x-tool-format')).toBe('hermes');
    expect(data.choices[0]?.message.tool_calls).toHaveLength(1);
    expect(data.choices[0]?.message.content).not.toContain('<tool_call>');
  });

  it('writes each family its own way: a gpt-oss model in Harmony, still parsed back', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'demo/gpt-oss-20b', messages: ask, tools: [weather] })
      .withResponse();
    expect(response.headers.get('x-tool-format')).toBe('harmony');
    expect((data.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name).toBe('get_weather');
  });

  it('answers with text once the tool result is in the conversation', async () => {
    const first = await client.chat.completions.create({ model: 'demo/qwen3-8b', messages: ask, tools: [weather] });
    const call = first.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    const second = await client.chat.completions.create({
      model: 'demo/qwen3-8b',
      tools: [weather],
      messages: [
        ...ask,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"temperature":21}' },
      ],
    });
    expect(second.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(second.choices[0]?.message.content).toContain('tool result came back');
  });

  it('follows tool_choice in the prompted lane as in the native one: a named tool, none, required', async () => {
    const time: OpenAI.ChatCompletionTool = {
      type: 'function',
      function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { enum: ['UTC', 'CET'] } }, required: ['zone'] } },
    };
    for (const model of ['demo/qwen3-8b', 'demo/gpt-oss-20b', 'demo/qwen3-coder-30b-a3b-instruct', 'demo/gpt-4o-mini']) {
      const named = await client.chat.completions.create({
        model,
        messages: ask,
        tools: [weather, time],
        tool_choice: { type: 'function', function: { name: 'get_time' } },
      });
      const namedCall = named.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(namedCall.function, model).toEqual({ name: 'get_time', arguments: '{"zone":"UTC"}' });
      const none = await client.chat.completions.create({ model, messages: ask, tools: [weather, time], tool_choice: 'none' });
      expect(none.choices[0]?.message.tool_calls ?? [], model).toEqual([]);
      expect(none.choices[0]?.finish_reason, model).toBe('stop');
      const required = await client.chat.completions.create({ model, messages: ask, tools: [weather, time], tool_choice: 'required' });
      expect((required.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name, model).toBe(
        'get_weather',
      );
    }
  });

  it('calls the tool through the Responses API (streamed, real client) and the Messages API too', async () => {
    const stream = client.responses.stream({
      model: 'demo/qwen3-coder-30b-a3b-instruct',
      input: 'Weather in Paris?',
      tools: [{ type: 'function', name: 'get_weather', parameters: weather.function.parameters ?? null, strict: false }],
    });
    const response = await stream.finalResponse();
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' });
    const messages = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', authorization: 'Bearer test-client-key' },
      body: JSON.stringify({
        model: 'demo/gpt-oss-20b',
        max_tokens: 100,
        messages: ask,
        tools: [{ name: 'get_weather', input_schema: weather.function.parameters }],
      }),
    });
    const body = (await messages.json()) as { stop_reason: string; content: { type: string; name?: string; input?: unknown }[] };
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content.find((block) => block.type === 'tool_use')).toMatchObject({
      name: 'get_weather',
      input: { city: 'Paris', unit: 'celsius' },
    });
  });

  it('answers with text when no tools are offered', async () => {
    const completion = await client.chat.completions.create({ model: 'demo/qwen3-8b', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.message.content).toContain("Interlingua's demo provider");
  });

  it('gives structured calls in the native lane for a model with native tools', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'demo/gpt-4o-mini', messages: ask, tools: [weather] })
      .withResponse();
    expect(response.headers.get('x-tool-calling')).toBe('native');
    expect((data.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name).toBe('get_weather');
  });

  it('lists its models', async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain('demo/qwen3-8b');
  });
});

describe('a script file', () => {
  it('replays turn one (a call written in the model family’s syntax) and then turn two', async () => {
    const first = await client.chat.completions.create({ model: 'replay/qwen3-coder-30b-a3b-instruct', messages: ask, tools: [weather] });
    const call = first.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Berlin', unit: 'celsius' });
    expect(first.choices[0]?.message.content?.trim()).toBe('Looking it up.');
    const stream = client.chat.completions.stream({
      model: 'replay/qwen3-coder-30b-a3b-instruct',
      tools: [weather],
      messages: [
        ...ask,
        { role: 'assistant', content: 'Looking it up.', tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '21' },
      ],
    });
    const second = await stream.finalChatCompletion();
    expect(second.choices[0]?.message.content).toBe('It is 21 degrees in Berlin.');
  });

  it('lists the models the script names', async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain('replay/qwen3-coder-30b-a3b-instruct');
  });

  it('plays an upstream error as an HTTP error in the API envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'failing/anything', messages: ask }),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('scripted upstream is down'), code: 'scripted_error' },
    });
  });

  it('stops the start when the script is invalid, naming the setting', async () => {
    const broken = join(directory, 'broken.yaml');
    await writeFile(broken, 'turns: [{ toolCalls: [{ arguments: {} }] }]\n');
    const config = normalizeConfig(validateConfigFile({ providers: { replay: { type: 'scripted', script: broken } } }), {});
    await expect(buildApp(config, { logger: pino({ level: 'silent' }) })).rejects.toThrow(ConfigError);
    await expect(buildApp(config, { logger: pino({ level: 'silent' }) })).rejects.toThrow(/providers\.replay\.script/);
  });

  it('is the only kind that needs no baseUrl', () => {
    expect(() => validateConfigFile({ providers: { local: { type: 'openai-compatible' } } })).toThrow(/baseUrl: is required/);
    expect(() => validateConfigFile({ providers: { demo: { type: 'scripted' } } })).not.toThrow();
  });
});
