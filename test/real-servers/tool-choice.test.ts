/**
 * `tool_choice` against a vLLM started as its docs start it (`vllm serve MODEL`, with and without a tool
 * parser), each case on a fresh gateway because the first request with tools decides the model's lane.
 */
import { describe, expect, it } from 'vitest';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { weatherQuestion, weatherTools } from './weather-request.js';

const tools = weatherTools;
const messages = weatherQuestion;

const running = closedAfterEach();

async function startVllm(family: string, toolCallParser: boolean): Promise<{ gateway: StartedGateway; model: string }> {
  const model = scriptedModel(family);
  running.server = await startFakeVllmServer({ model, toolCallParser });
  running.gateway = await startGateway(
    { providers: { v: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1` } } },
    { detectServers: true },
  );
  await waitForServerDetection(running.gateway);
  return { gateway: running.gateway, model: `v/${model.id}` };
}

describe('tool_choice through vLLM', () => {
  it.each([
    ['required', 'required' as const],
    ['a named tool', { type: 'function' as const, function: { name: 'get_weather' } }],
  ])('without a tool parser, %s on the first request is retried prompted, not refused', async (_label, toolChoice) => {
    // vLLM answers 400 `tool_choice="required" requires --tool-call-parser to be set` (serving_chat.py).
    const { gateway, model } = await startVllm('llama3', false);
    const reply = await gateway.client().chat.completions.create({ model, messages, tools, tool_choice: toolChoice }).withResponse();
    expect(reply.response.headers.get('x-tool-calling')).toBe('prompted');
    const choice = reply.data.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []).toEqual([
      weatherCall.name,
      weatherCall.arguments,
    ]);
  });
});

describe('tool_choice "none" through vLLM', () => {
  it('returns no calls even though vLLM renders the tools and the model writes one', async () => {
    // vLLM renders `tools` under `none` unless started with --exclude-tools-when-tool-choice-none, and does
    // not parse the reply (docs/features/tool_calling.md): Qwen3's unparsed <tool_call> arrives as text.
    const { gateway, model } = await startVllm('hermes', true);
    const reply = await gateway.client().chat.completions.create({ model, messages, tools, tool_choice: 'none' }).withResponse();
    expect(reply.response.headers.get('x-tool-calling')).toBe('native');
    const choice = reply.data.choices[0];
    expect(choice?.message.tool_calls ?? []).toEqual([]);
    expect(choice?.finish_reason).toBe('stop');
    expect(running.server?.bodiesOf('/v1/chat/completions')[0]).toMatchObject({ tool_choice: 'none' });
  });
});

describe("tool_choice through Ollama's OpenAI-compatible /v1", () => {
  async function startOllama(): Promise<{ gateway: StartedGateway; model: string }> {
    const model = scriptedModel('hermes');
    running.server = await startFakeOllamaServer({ models: [model] });
    running.gateway = await startGateway(
      { providers: { o: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1` } } },
      { detectServers: true },
    );
    await waitForServerDetection(running.gateway);
    return { gateway: running.gateway, model: `o/${model.ollamaName}` };
  }

  it('keeps "none" by not offering the tools, since Ollama ignores tool_choice', async () => {
    const { gateway, model } = await startOllama();
    const reply = await gateway.client().chat.completions.create({ model, messages, tools, tool_choice: 'none' });
    expect(reply.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(reply.choices[0]?.finish_reason).toBe('stop');
    expect(running.server?.bodiesOf('/v1/chat/completions')[0]).not.toHaveProperty('tools');
  });

  it('says that a forced tool cannot be enforced', async () => {
    const { gateway, model } = await startOllama();
    const reply = await gateway.client().chat.completions.create({
      model,
      messages,
      tools,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    const { diagnostics } = reply as unknown as { diagnostics?: { warnings?: { code: string; message: string }[] } };
    expect(diagnostics?.warnings).toEqual([
      expect.objectContaining({ code: 'unsupported-parameter', message: expect.stringContaining("forcing 'get_weather'") }),
    ]);
  });
});

describe('a named tool through llama-server, which reads tool_choice only as a string', () => {
  it('is sent as that tool alone with "required", which its grammar enforces', async () => {
    const model = scriptedModel('hermes');
    running.server = await startFakeLlamaServer({ model });
    running.gateway = await startGateway(
      { providers: { l: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1` } } },
      { detectServers: true },
    );
    await waitForServerDetection(running.gateway);
    const offered = [...tools, { type: 'function' as const, function: { name: 'get_time', parameters: { type: 'object' } } }];
    const reply = await running.gateway
      .client()
      .chat.completions.create({
        model: 'l/Qwen3-8B-Q4_K_M.gguf',
        messages,
        tools: offered,
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      })
      .withResponse();
    expect(reply.response.headers.get('x-tool-calling')).toBe('native');
    expect(reply.data.choices[0]?.finish_reason).toBe('tool_calls');
    const sent = running.server.bodiesOf('/v1/chat/completions')[0] as { tools?: { function: { name: string } }[]; tool_choice?: unknown };
    expect({ tools: sent.tools?.map((tool) => tool.function.name), toolChoice: sent.tool_choice }).toEqual({
      tools: ['get_weather'],
      toolChoice: 'required',
    });
  });
});
