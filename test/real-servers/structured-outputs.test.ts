/**
 * Structured outputs through the gateway to vLLM, SGLang, llama-server and Ollama as their docs start them, whose
 * fakes decode under the schema as the real servers do (test/helpers/constrained-decoding.ts): the gateway
 * must send the schema in the field each server reads, in the native lane and in the prompted lane without
 * tools (whose upstream keeps its own JSON mode), and the reply must be valid against the schema, streamed
 * or whole.
 */
import { Ajv } from 'ajv';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { startFakeSglangServer } from '../helpers/fake-sglang-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { scriptedModel, type ScriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';

/** Nested objects, an enum, a bounded integer, an array of objects and a nullable union. */
const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    unit: { enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    readings: {
      type: 'array',
      minItems: 2,
      items: {
        type: 'object',
        properties: { hour: { type: 'integer' }, temperature: { type: 'number' } },
        required: ['hour', 'temperature'],
        additionalProperties: false,
      },
    },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['city', 'unit', 'days', 'readings', 'note'],
  additionalProperties: false,
};

const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'forecast', strict: true, schema } };
const messages = [{ role: 'user' as const, content: 'Give me the forecast for Paris.' }];
const isValid = new Ajv({ strict: false }).compile(schema);

type Setup = {
  label: string;
  model: ScriptedModel;
  start(model: ScriptedModel): Promise<FakeInferenceServer>;
  provider: (url: string) => { type: string; baseUrl: string };
  served: (model: ScriptedModel) => string;
  /** The upstream path and where in its body the schema must be. */
  path: string;
  sentSchema(body: Record<string, unknown>): unknown;
};

const openAiField = (body: Record<string, unknown>) =>
  (body.response_format as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema;

const setups: readonly Setup[] = [
  {
    label: 'vLLM (--enable-auto-tool-choice --tool-call-parser hermes)',
    model: scriptedModel('hermes'),
    start: (model) => startFakeVllmServer({ model, toolCallParser: true }),
    provider: (url) => ({ type: 'openai-compatible', baseUrl: `${url}/v1` }),
    served: (model) => model.id,
    path: '/v1/chat/completions',
    sentSchema: openAiField,
  },
  {
    label: 'SGLang (python -m sglang.launch_server --model-path MODEL)',
    model: scriptedModel('hermes'),
    start: (model) => startFakeSglangServer({ model }),
    provider: (url) => ({ type: 'openai-compatible', baseUrl: `${url}/v1` }),
    served: (model) => model.id,
    path: '/v1/chat/completions',
    sentSchema: openAiField,
  },
  {
    label: 'llama.cpp (llama-server -m MODEL.gguf)',
    model: scriptedModel('hermes'),
    start: (model) => startFakeLlamaServer({ model }),
    provider: (url) => ({ type: 'openai-compatible', baseUrl: `${url}/v1` }),
    served: (model) => `${model.id.split('/').at(-1) ?? model.id}-Q4_K_M.gguf`,
    path: '/v1/chat/completions',
    sentSchema: openAiField,
  },
  {
    label: 'Ollama (native /api/chat)',
    model: scriptedModel('hermes'),
    start: (model) => startFakeOllamaServer({ models: [model] }),
    provider: (url) => ({ type: 'ollama', baseUrl: url }),
    served: (model) => model.ollamaName,
    path: '/api/chat',
    sentSchema: (body) => body.format,
  },
  {
    label: 'Ollama (its OpenAI-compatible /v1)',
    model: scriptedModel('hermes'),
    start: (model) => startFakeOllamaServer({ models: [model] }),
    provider: (url) => ({ type: 'openai-compatible', baseUrl: `${url}/v1` }),
    served: (model) => model.ollamaName,
    path: '/v1/chat/completions',
    sentSchema: openAiField,
  },
];

const running = closedAfterEach();

async function start(
  setup: Setup,
  toolCalling: 'native' | 'prompted',
): Promise<{ gateway: StartedGateway; server: FakeInferenceServer; model: string }> {
  const server = await setup.start(setup.model);
  running.server = server;
  const gateway = await startGateway({ providers: { local: { ...setup.provider(server.url), toolCalling } } }, { detectServers: true });
  running.gateway = gateway;
  await waitForServerDetection(gateway);
  return { gateway, server, model: `local/${setup.served(setup.model)}` };
}

async function streamedContent(client: OpenAI, model: string): Promise<{ content: string; diagnostics: unknown[] }> {
  const stream = await client.chat.completions.create({ model, messages, response_format: responseFormat, stream: true });
  let content = '';
  const diagnostics: unknown[] = [];
  for await (const chunk of stream) {
    content += chunk.choices[0]?.delta.content ?? '';
    const extra = (chunk as unknown as { diagnostics?: unknown }).diagnostics;
    if (extra !== undefined) diagnostics.push(extra);
  }
  return { content, diagnostics };
}

describe.each(setups)('structured outputs through $label', (setup) => {
  it.each(['native', 'prompted'] as const)(
    "%s lane: the schema goes in the server's own field and the reply is valid, whole and streamed",
    async (lane) => {
      const { gateway, server, model } = await start(setup, lane);
      const client = gateway.client();

      const whole = await client.chat.completions.create({ model, messages, response_format: responseFormat });
      const wholeContent = whole.choices[0]?.message.content ?? '';
      expect(isValid(JSON.parse(wholeContent)), wholeContent).toBe(true);
      expect(
        (whole as unknown as { diagnostics?: { response_format_error?: unknown } }).diagnostics?.response_format_error,
      ).toBeUndefined();

      const streamed = await streamedContent(client, model);
      expect(isValid(JSON.parse(streamed.content)), streamed.content).toBe(true);
      expect(JSON.stringify(streamed.diagnostics)).not.toContain('response_format_error');

      const bodies = server.bodiesOf(setup.path);
      expect(bodies).toHaveLength(2);
      for (const body of bodies) expect(setup.sentSchema(body)).toEqual(schema);
    },
  );
});

/** The schema a request carried in the upstream's system prompt (the gateway writes it there when not native). */
function promptMentionsSchema(body: Record<string, unknown>): boolean {
  return JSON.stringify(body.messages).includes('readings');
}

describe('what the servers do not support', () => {
  it('a llama-server build before json_schema formats refuses one (500): the gateway writes the schema into the prompt', async () => {
    const server = await startFakeLlamaServer({ model: scriptedModel('hermes'), withoutJsonSchemaFormat: true });
    running.server = server;
    running.gateway = await startGateway(
      { providers: { local: { type: 'openai-compatible', baseUrl: `${server.url}/v1` } } },
      { detectServers: true },
    );
    await waitForServerDetection(running.gateway);
    const reply = await running.gateway
      .client()
      .chat.completions.create({ model: 'local/Qwen3-8B-Q4_K_M.gguf', messages, response_format: responseFormat })
      .withResponse();
    const bodies = server.bodiesOf('/v1/chat/completions');
    expect({
      status: reply.response.status,
      sent: bodies.map((body) => [Boolean(body.response_format), promptMentionsSchema(body)]),
    }).toEqual({
      status: 200,
      sent: [
        [true, false],
        [false, true],
      ],
    });
  });

  it("a schema llama-server's converter cannot read (400) goes again in the prompt, with a warning quoting it", async () => {
    const server = await startFakeLlamaServer({ model: scriptedModel('hermes') });
    running.server = server;
    running.gateway = await startGateway({ providers: { local: { type: 'openai-compatible', baseUrl: `${server.url}/v1` } } });
    // Valid JSON Schema (a JSON Pointer with an escaped "/"), which json-schema-to-grammar looks up unescaped.
    const unreadable = {
      type: 'object',
      properties: { value: { $ref: '#/$defs/any~1value' } },
      required: ['value'],
      $defs: { 'any/value': { type: 'string' } },
    };
    const completion = await running.gateway.client().chat.completions.create({
      model: 'local/Qwen3-8B-Q4_K_M.gguf',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'anything', schema: unreadable } },
    });
    const bodies = server.bodiesOf('/v1/chat/completions');
    expect(bodies.map((body) => [Boolean(body.response_format), JSON.stringify(body.messages).includes('any/value')])).toEqual([
      [true, false],
      [false, true],
    ]);
    const warnings = (completion as unknown as { diagnostics?: { warnings?: { code: string; message: string }[] } }).diagnostics?.warnings;
    expect(warnings).toContainEqual({
      code: 'unsupported-parameter',
      message: expect.stringContaining('Error resolving ref #/$defs/any~1value: any~1value not in') as string,
    });
  });
  it('Ollama before 0.5.0 refuses a schema in `format` (400): the gateway writes it into the prompt', async () => {
    const model = scriptedModel('hermes');
    const server = await startFakeOllamaServer({ models: [model], beforeFormatSchemas: true });
    running.server = server;
    running.gateway = await startGateway({ providers: { local: { type: 'ollama', baseUrl: server.url } } });
    const reply = await running.gateway
      .client()
      .chat.completions.create({ model: `local/${model.ollamaName}`, messages, response_format: responseFormat });
    const bodies = server.bodiesOf('/api/chat');
    expect(bodies.map((body) => [body.format !== undefined && typeof body.format === 'object', promptMentionsSchema(body)])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(reply.choices[0]?.message.content).toBeTypeOf('string');
  });

  it("Ollama's /v1 before 0.5.0 ignores a json_schema format and answers prose: the reply carries response_format_error", async () => {
    const model = scriptedModel('hermes');
    const server = await startFakeOllamaServer({ models: [model], beforeFormatSchemas: true });
    running.server = server;
    running.gateway = await startGateway({ providers: { local: { type: 'openai-compatible', baseUrl: `${server.url}/v1` } } });
    const reply = await running.gateway
      .client()
      .chat.completions.create({ model: `local/${model.ollamaName}`, messages, response_format: responseFormat });
    expect(
      (reply as unknown as { diagnostics?: { response_format_error?: { code?: string } } }).diagnostics?.response_format_error?.code,
    ).toBe('invalid_json');
    expect(reply.choices[0]?.message.content).toBe(model.answer);
  });

  it('the prompted lane with tools puts the schema in the prompt, not in the server field, and the call comes back', async () => {
    const { gateway, server, model } = await start(setups[0] as Setup, 'prompted');
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ];
    const reply = await gateway.client().chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools,
      response_format: responseFormat,
    });
    expect(reply.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
    const body = server.bodiesOf('/v1/chat/completions')[0] ?? {};
    expect([body.response_format, promptMentionsSchema(body)]).toEqual([undefined, true]);
  });
});
