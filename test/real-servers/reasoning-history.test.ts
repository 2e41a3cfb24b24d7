/**
 * A thinking model's reasoning between tool calls goes back to the server on the next turn, in the field
 * that server hands its chat template, for the turns the model's template keeps (those after the last user
 * message for Qwen3, after the last final answer for gpt-oss and Kimi K2 Thinking): without it the model
 * loses its plan mid-task. The reasoning of a turn the template drops is not sent.
 */
import { describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { startFakeSglangServer } from '../helpers/fake-sglang-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { startFakeLmStudioServer, lmStudioId } from '../helpers/fake-lmstudio-server.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { post } from '../routes/messages/messages-test-kit.js';
import { weatherTools } from './weather-request.js';

const earlierReasoning = 'The user wants a greeting.';
const planReasoning = 'Plan: look up Paris, then compare with Rome.';
/** An answered question, then a new one the model is working on: one call made, its result back. */
const conversation = [
  { role: 'user' as const, content: 'Say hello.' },
  { role: 'assistant' as const, content: 'Hello!', reasoning_content: earlierReasoning },
  { role: 'user' as const, content: 'Is Paris warmer than Rome?' },
  {
    role: 'assistant' as const,
    content: null,
    reasoning_content: planReasoning,
    tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
  },
  { role: 'tool' as const, tool_call_id: 'call_1', content: '21°C' },
];

const running = closedAfterEach();

/** The assistant messages of the last conversation the server was sent (chat endpoint or /apply-template): their reasoning fields. */
function sentAssistants(started: FakeInferenceServer): Record<string, unknown>[] {
  const conversations = started.requests.filter((request) => ['/v1/chat/completions', '/apply-template'].includes(request.path));
  const last = (conversations.at(-1)?.body ?? {}) as { messages?: Record<string, unknown>[] };
  return (last.messages ?? [])
    .filter((message) => message.role === 'assistant')
    .map((message) => ({ reasoning: message.reasoning, reasoning_content: message.reasoning_content, thinking: message.thinking }));
}

async function ask(
  started: FakeInferenceServer,
  model: string,
  provider: { type: string; path: string },
  extras: Record<string, unknown> = {},
): Promise<void> {
  running.gateway = await startGateway(
    { providers: { s: { type: provider.type, baseUrl: `${started.url}${provider.path}` } } },
    { detectServers: true },
  );
  await waitForServerDetection(running.gateway);
  const reply = await running.gateway
    .client()
    .chat.completions.create({ model: `s/${model}`, messages: conversation, tools: weatherTools, ...extras });
  expect(reply.choices[0]?.message).toBeDefined();
}

const openAiCompatible = { type: 'openai-compatible', path: '/v1' };
const kept = (field: string) => [{ [field]: undefined }, { [field]: planReasoning }].map((fields) => expect.objectContaining(fields));

describe("the reasoning of the turns a model's template keeps goes back to the server", () => {
  it('vLLM with its tool parser (the native lane): `reasoning` (chat_utils.py), the call turn only', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes'), toolCallParser: true });
    await ask(running.server, scriptedModel('hermes').id, openAiCompatible);
    expect(sentAssistants(running.server)).toEqual(kept('reasoning'));
  });

  it('vLLM without a tool parser (its template renders the prompted history): `reasoning`', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes') });
    await ask(running.server, scriptedModel('hermes').id, openAiCompatible);
    expect(sentAssistants(running.server)).toEqual(kept('reasoning'));
  });

  it('vLLM serving gpt-oss: `reasoning`, which its Harmony encoder makes the analysis message', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('harmony'), toolCallParser: true });
    await ask(running.server, scriptedModel('harmony').id, openAiCompatible);
    expect(sentAssistants(running.server)).toEqual(kept('reasoning'));
  });

  it('SGLang (the prompted lane, history rendered as text): `reasoning_content`, the call turn only', async () => {
    running.server = await startFakeSglangServer({ model: scriptedModel('hermes') });
    await ask(running.server, scriptedModel('hermes').id, openAiCompatible);
    // The call turn is text now and its result a user turn; Qwen3's template still keeps it (last_query_index skips results).
    expect(sentAssistants(running.server)).toEqual(kept('reasoning_content'));
  });

  it('llama-server (/apply-template): `reasoning_content` (common_chat_msgs_parse_oaicompat)', async () => {
    running.server = await startFakeLlamaServer({ model: scriptedModel('hermes') });
    await ask(running.server, 'any-name', openAiCompatible);
    expect(sentAssistants(running.server)).toEqual(kept('reasoning_content'));
  });

  it('llama-server serving Kimi K2 (the prompted lane, /apply-template): `reasoning_content`, after the last answer', async () => {
    running.server = await startFakeLlamaServer({ model: scriptedModel('kimi-k2') });
    await ask(running.server, 'any-name', openAiCompatible);
    expect(running.server.bodiesOf('/apply-template').length).toBeGreaterThan(0);
    expect(sentAssistants(running.server)).toEqual(kept('reasoning_content'));
  });

  it("Ollama's /v1: `reasoning` (openai/openai.go makes it the message's thinking)", async () => {
    const model = scriptedModel('hermes');
    running.server = await startFakeOllamaServer({ models: [model] });
    await ask(running.server, model.ollamaName, openAiCompatible);
    expect(sentAssistants(running.server)).toEqual(kept('reasoning'));
  });

  it('vLLM, the client asking the template to keep every turn (preserve_thinking): every turn', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes'), toolCallParser: true });
    await ask(running.server, scriptedModel('hermes').id, openAiCompatible, { chat_template_kwargs: { preserve_thinking: true } });
    expect(sentAssistants(running.server).map((message) => message.reasoning)).toEqual([earlierReasoning, planReasoning]);
  });

  it('LM Studio, not known to read it: nothing', async () => {
    const model = scriptedModel('hermes');
    running.server = await startFakeLmStudioServer({ models: [model] });
    await ask(running.server, lmStudioId(model), openAiCompatible);
    const sent = sentAssistants(running.server);
    expect(sent).toHaveLength(2);
    for (const message of sent) expect(message).toEqual({ reasoning: undefined, reasoning_content: undefined, thinking: undefined });
  });

  it('a family whose template shows no earlier reasoning (Llama 3.1): nothing', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('llama3'), toolCallParser: true });
    await ask(running.server, scriptedModel('llama3').id, openAiCompatible);
    const sent = sentAssistants(running.server);
    expect(sent.length).toBeGreaterThan(0);
    for (const message of sent) expect(message.reasoning).toBeUndefined();
  });
});

describe("each API carries the client's reasoning in (vLLM's native lane, Qwen3)", () => {
  const model = scriptedModel('hermes');
  const callTurnReasoning = async () => {
    const sent = sentAssistants(running.server!);
    return sent.at(-1)?.reasoning;
  };

  it('Responses: a reasoning item before the call (its summary, as the gateway writes it out)', async () => {
    running.server = await startFakeVllmServer({ model, toolCallParser: true });
    await ask(running.server, model.id, openAiCompatible);
    const gateway = running.gateway!;
    await gateway.client().responses.create({
      model: `s/${model.id}`,
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherTools[0]!.function.parameters, strict: false }],
      input: [
        { role: 'user', content: 'Is Paris warmer than Rome?' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: planReasoning }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '21°C' },
      ],
    });
    expect(await callTurnReasoning()).toBe(planReasoning);
  });

  it('Responses: a reasoning item with reasoning_text content', async () => {
    running.server = await startFakeVllmServer({ model, toolCallParser: true });
    await ask(running.server, model.id, openAiCompatible);
    await running.gateway!.client().responses.create({
      model: `s/${model.id}`,
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherTools[0]!.function.parameters, strict: false }],
      input: [
        { role: 'user', content: 'Is Paris warmer than Rome?' },
        { type: 'reasoning', id: 'rs_1', summary: [], content: [{ type: 'reasoning_text', text: planReasoning }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '21°C' },
      ],
    });
    expect(await callTurnReasoning()).toBe(planReasoning);
  });

  it('Messages: a thinking block before the tool_use', async () => {
    running.server = await startFakeVllmServer({ model, toolCallParser: true });
    await ask(running.server, model.id, openAiCompatible);
    const response = await post(`${running.gateway!.baseUrl}/v1/messages`, {
      model: `s/${model.id}`,
      max_tokens: 256,
      tools: [{ name: 'get_weather', input_schema: weatherTools[0]!.function.parameters }],
      messages: [
        { role: 'user', content: 'Is Paris warmer than Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: planReasoning, signature: '' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '21°C' }] },
      ],
    });
    expect(response.status).toBe(200);
    expect(await callTurnReasoning()).toBe(planReasoning);
  });
});
