/**
 * Known tool lists end to end: an agent resending one large list gets the same upstream bodies as
 * without the cache, requests sharing the list cannot change what another one sends, and every
 * inbound API takes the shared (frozen) value. The real `openai` client drives the gateway.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../helpers/gateway-with-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import { testProvider } from '../helpers/start-gateway.js';

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  providers: {
    native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
    prompted: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted' }),
  },
}));
const client = gateway.client();

/** About 10 KB of tools, over the 4 KB a list needs to be remembered; `variant` makes a different list. */
function agentTools(variant: string): OpenAI.ChatCompletionFunctionTool[] {
  return Array.from({ length: 40 }, (_, index) => ({
    type: 'function',
    function: {
      name: `${variant}_action_${index}`,
      description: `Performs action ${index} (${variant}). Use it when the user asks for it; it never deletes anything. Long enough to be realistic.`,
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'A path' }, limit: { type: 'integer' } },
        required: ['path'],
      },
    },
  }));
}

const question: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Do action 3 on src.' }];

/** The upstream body of the latest chat request, as text (the fake upstream parsed it; stringify keeps order and values). */
function lastUpstreamText(): string {
  return JSON.stringify(upstream.lastChatBody());
}

async function nativeTurn(
  tools: OpenAI.ChatCompletionTool[],
  extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {},
): Promise<string> {
  upstream.enqueue({ type: 'chat', content: 'done' });
  await client.chat.completions.create({ model: 'native/gpt-4o-mini', messages: question, tools, ...extra });
  return lastUpstreamText();
}

async function promptedTurn(
  tools: OpenAI.ChatCompletionTool[],
  extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {},
): Promise<string> {
  upstream.enqueue({ type: 'chat', content: 'done' });
  await client.chat.completions.create({ model: 'prompted/qwen2.5-7b-instruct', messages: question, tools, ...extra });
  return lastUpstreamText();
}

describe('known tool lists through the gateway', () => {
  it('sends the same upstream body on every turn, before the list is known and after', async () => {
    const tools = agentTools('same');
    const turns = [];
    for (let turn = 0; turn < 4; turn++) turns.push(await nativeTurn(tools));
    for (const turn of turns) expect(turn).toBe(turns[0]);
    expect(JSON.parse(turns[0]!).tools).toEqual(tools);
  });

  it('writes the same prompt on every turn in the prompted lane', async () => {
    const tools = agentTools('prompted');
    const turns = [];
    for (let turn = 0; turn < 4; turn++) turns.push(await promptedTurn(tools));
    for (const turn of turns) expect(turn).toBe(turns[0]);
    expect(turns[0]).toContain('prompted_action_39');
  });

  it('keeps requests that share a list from changing what another one sends', async () => {
    const tools = agentTools('shared');
    const nativeBefore = await nativeTurn(tools);
    const promptedBefore = await promptedTurn(tools);
    await nativeTurn(tools);
    // Everything a request can vary around the shared list: tool_choice, parallel calls, agent formats,
    // a named tool in the prompted lane, Python-style whitespace, streaming.
    await nativeTurn(tools, { tool_choice: { type: 'function', function: { name: 'shared_action_3' } }, parallel_tool_calls: false });
    await promptedTurn(tools, { tool_choice: { type: 'function', function: { name: 'shared_action_5' } } });
    await promptedTurn(tools, { agent_format: 'hermes' } as never);
    await nativeTurn(tools, { agent_format: 'qwen3' } as never);
    upstream.enqueue({ type: 'chat', content: 'done' });
    const python = `{"model": "native/gpt-4o-mini", "messages": ${JSON.stringify(question)}, "tools": ${JSON.stringify(tools, null, 1)}, "tool_choice": "required"}`;
    expect((await postJson(`${gateway.baseUrl}/v1/chat/completions`, python)).status).toBe(200);
    upstream.enqueue({ type: 'chat', content: 'done' });
    await client.chat.completions.stream({ model: 'native/gpt-4o-mini', messages: question, tools }).finalChatCompletion();

    expect(await nativeTurn(tools)).toBe(nativeBefore);
    expect(await promptedTurn(tools)).toBe(promptedBefore);
    expect(JSON.parse(nativeBefore).tools).toEqual(tools);
  });

  it('serves different lists side by side, each unchanged', async () => {
    const first = agentTools('first');
    const second = agentTools('second');
    const sent = { first: [] as string[], second: [] as string[] };
    for (let turn = 0; turn < 3; turn++) {
      sent.first.push(await nativeTurn(first));
      sent.second.push(await nativeTurn(second));
    }
    expect(new Set(sent.first).size).toBe(1);
    expect(new Set(sent.second).size).toBe(1);
    expect(JSON.parse(sent.second[0]!).tools).toEqual(second);
  });

  it('answers invalid JSON after a known list with the usual 400', async () => {
    const tools = agentTools('invalid');
    for (let turn = 0; turn < 3; turn++) await nativeTurn(tools);
    const truncated = JSON.stringify({ model: 'native/gpt-4o-mini', messages: question, tools }).slice(0, -1);
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, truncated);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('serves the Responses and Messages APIs from a known list too', async () => {
    const responsesTools = agentTools('responses').map((tool) => ({
      type: 'function',
      name: tool.function.name,
      description: tool.function.description,
      parameters: tool.function.parameters,
    }));
    const messagesTools = agentTools('messages').map((tool) => ({
      name: tool.function.name,
      description: tool.function.description,
      input_schema: tool.function.parameters,
    }));
    const sent = { responses: [] as string[], messages: [] as string[] };
    for (let turn = 0; turn < 3; turn++) {
      upstream.enqueue({ type: 'chat', content: 'done' });
      const response = await postJson(`${gateway.baseUrl}/v1/responses`, {
        model: 'native/gpt-4o-mini',
        input: 'Do it.',
        tools: responsesTools,
        store: false,
      });
      expect(response.status).toBe(200);
      expect(JSON.parse(response.text).tools).toEqual(responsesTools);
      sent.responses.push(lastUpstreamText());
      upstream.enqueue({ type: 'chat', content: 'done' });
      const message = await postJson(
        `${gateway.baseUrl}/v1/messages`,
        { model: 'native/gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'Do it.' }], tools: messagesTools },
        { 'anthropic-version': '2023-06-01' },
      );
      expect(message.status).toBe(200);
      sent.messages.push(lastUpstreamText());
    }
    expect(new Set(sent.responses).size).toBe(1);
    expect(new Set(sent.messages).size).toBe(1);
    expect(JSON.parse(sent.messages[0]!).tools).toHaveLength(40);
  });
});
