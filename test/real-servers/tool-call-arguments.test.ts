/**
 * Calls the matrix (tool-calls-matrix.test.ts) does not make: two parallel calls, and arguments with nested
 * objects, arrays, quotes, backslashes and text outside the Basic Multilingual Plane, for the families the
 * project promises (gpt-oss, Mistral, Llama 3.1, Kimi K2, Granite, InternLM, Qwen3, DeepSeek V3), on vLLM,
 * llama-server, Ollama and LM Studio started with their defaults (special tokens as each server treats them by default),
 * asked with `toolCalling: auto` through the real openai client (and on Responses and Messages), whole and streamed. Each cell must give every
 * call back structured, its arguments equal to the model's, with finish_reason tool_calls; and `auto` must
 * have used the native lane where the server parses the model's calls itself (vLLM with its tool parser,
 * llama-server with Jinja, Ollama and LM Studio for tool-trained models), the prompted lane elsewhere.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ScriptedCall } from '../helpers/scripted-models.js';
import { scriptedModel, withCalls } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';
import { serverKinds, type StartedServers } from './server-kinds.js';
import { askForWeather, toolCallFinish } from './tool-call-outcomes.js';

/** Nested JSON, a quote, a backslash, accents, CJK and an emoji (a surrogate pair in UTF-16). */
const nestedCall: ScriptedCall = {
  name: 'get_weather',
  arguments: {
    city: 'São Paulo',
    options: { units: 'metric', days: [1, 2, 3], alerts: { severe: true, note: 'pluie "forte" \\ 東京 🌧' } },
  },
};
const secondCall: ScriptedCall = { name: 'get_weather', arguments: { city: 'Zürich', options: { units: 'imperial', days: [] } } };

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          options: {
            type: 'object',
            properties: {
              units: { type: 'string', enum: ['metric', 'imperial'] },
              days: { type: 'array', items: { type: 'integer' } },
              alerts: { type: 'object', properties: { severe: { type: 'boolean' }, note: { type: 'string' } } },
            },
          },
        },
        required: ['city'],
      },
    },
  },
];

/**
 * Each family with the calls its model makes in one reply: gpt-oss ends its turn at each call's `<|call|>`
 * and InternLM2 writes one action a turn (vLLM's internlm2 parser reads one), so they make the nested call
 * alone; the others make both.
 */
const cases = [
  { family: 'harmony', calls: [nestedCall] },
  { family: 'mistral', calls: [nestedCall, secondCall] },
  { family: 'llama3', calls: [nestedCall, secondCall] },
  { family: 'kimi-k2', calls: [nestedCall, secondCall] },
  { family: 'granite', calls: [nestedCall, secondCall] },
  { family: 'internlm', calls: [nestedCall] },
  { family: 'hermes', calls: [nestedCall, secondCall] },
  { family: 'deepseek', calls: [nestedCall, secondCall] },
].map(({ family, calls }) => ({ family, calls, model: withCalls(scriptedModel(family), calls) }));

/**
 * The server kinds named by the promise, started with their defaults, and the families `auto` sends natively
 * on each: vLLM without a tool parser takes tools only for Mistral tokenizers (and gpt-oss, whose calls it
 * loses: tool-calls-matrix.test.ts), answering every other family's tools with its 400 ("auto" tool choice
 * requires --enable-auto-tool-choice …), so `auto` prompts them; the Mistral call reaches the gateway as text
 * (`[TOOL_CALLS]` is kept by its tokenizer) and is read there. llama-server parses the calls of the models whose
 * template /props shows calling tools (`chat_template_caps.supports_tool_calls`); Ollama those of the models
 * with the `tools` capability, LM Studio those its listing marks `tool_use` (the same models here).
 */
const kinds = [
  { label: 'vLLM (vllm serve MODEL)', native: ['mistral'] },
  { label: 'vLLM (--enable-auto-tool-choice --tool-call-parser FAMILY)', native: cases.map((one) => one.family) },
  { label: 'llama.cpp (llama-server -m MODEL.gguf)', native: ['harmony', 'mistral', 'hermes'] },
  { label: 'Ollama (native API)', native: ['harmony', 'mistral', 'llama3', 'kimi-k2', 'granite', 'hermes'] },
  { label: 'Ollama (its OpenAI-compatible /v1)', native: ['harmony', 'mistral', 'llama3', 'kimi-k2', 'granite', 'hermes'] },
  { label: 'LM Studio (lms server start)', native: ['harmony', 'mistral', 'llama3', 'kimi-k2', 'granite', 'hermes'] },
].map((kind) => {
  const setup = serverKinds.find((candidate) => candidate.label === kind.label);
  if (!setup) throw new Error(`no server kind ${kind.label}`);
  return { ...kind, setup };
});

type Outcome = { lane: string | null; calls: { name: string; arguments: unknown }[]; finish: string | null | undefined; content: string };

async function ask(client: OpenAI, model: string, stream: boolean): Promise<Outcome> {
  const request = { model, messages: [{ role: 'user' as const, content: 'The weather in São Paulo and in Zürich?' }], tools };
  if (!stream) {
    const reply = await client.chat.completions.create(request).withResponse();
    const choice = reply.data.choices[0];
    return {
      lane: reply.response.headers.get('x-tool-calling'),
      calls: (choice?.message.tool_calls ?? []).map((call) =>
        call.type === 'function'
          ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }
          : { name: '', arguments: null },
      ),
      finish: choice?.finish_reason,
      content: choice?.message.content ?? '',
    };
  }
  const reply = await client.chat.completions.create({ ...request, stream: true }).withResponse();
  const calls: { name: string; arguments: string }[] = [];
  let finish: string | null = null;
  let content = '';
  for await (const chunk of reply.data) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    content += choice.delta.content ?? '';
    for (const fragment of choice.delta.tool_calls ?? []) {
      const call = (calls[fragment.index] ??= { name: '', arguments: '' });
      call.name += fragment.function?.name ?? '';
      call.arguments += fragment.function?.arguments ?? '';
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return {
    lane: reply.response.headers.get('x-tool-calling'),
    calls: calls.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) as unknown })),
    finish,
    content,
  };
}

describe.each(kinds)('$label', ({ setup, native }) => {
  let servers: StartedServers;
  let gateway: StartedGateway;
  let client: OpenAI;

  beforeAll(async () => {
    servers = await setup.start(cases.map((one) => one.model));
    gateway = await startGateway({ providers: servers.providers }, { detectServers: true });
    // An `ollama` provider's server is known from the start ("configured"): its models are still being read.
    await waitForServerDetection(gateway, (found) =>
      Object.values(found).every((report) => report.found !== 'configured' || report.version !== undefined),
    );
    client = gateway.client();
  });

  afterAll(async () => {
    await gateway?.close();
    await servers?.close();
  });

  // vLLM without a tool parser loses gpt-oss's calls before the gateway sees them (tool-calls-matrix.test.ts).
  const reachable = cases.filter(({ family }) => !setup.losesCallsOf?.includes(family));
  describe.concurrent.each(reachable)('$family', ({ family, calls, model }) => {
    for (const stream of [false, true]) {
      it(stream ? 'streamed' : 'whole', async ({ expect }) => {
        const outcome = await ask(client, servers.modelOf(model), stream);
        expect(outcome.calls, `content: ${JSON.stringify(outcome.content)}`).toEqual(calls.map((call) => ({ ...call })));
        expect(outcome.finish).toBe('tool_calls');
        expect(outcome.content).not.toContain('get_weather');
        expect(outcome.lane).toBe(native.includes(family) ? 'native' : 'prompted');
      });
      // The other inbound APIs: each call its own function_call item, its own tool_use block.
      for (const api of ['responses', 'messages'] as const) {
        it(`${api} ${stream ? 'streamed' : 'whole'}`, async ({ expect }) => {
          const outcome = await askForWeather(api, { baseUrl: gateway.baseUrl, client }, servers.modelOf(model), stream);
          expect(outcome.calls, `text: ${JSON.stringify(outcome.text)}`).toEqual(calls.map((call) => ({ ...call })));
          expect(outcome.finish).toBe(toolCallFinish[api]);
          expect(outcome.text).not.toContain('get_weather');
        });
      }
    }
  });
});
