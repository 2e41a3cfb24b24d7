/**
 * Replies whose special tokens the upstream server removed (vLLM's default skip_special_tokens, llama-server
 * without --special), through the whole gateway: the client gets structured calls, finish_reason
 * tool_calls, no residue in the content and `special-tokens-stripped` in diagnostics, whole and streamed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../helpers/gateway-with-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** What each family's markup leaves once its special tokens are removed, as a server sends it. */
const strippedReplies = [
  {
    model: 'local/openai/gpt-oss-20b',
    reply: 'analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city": "Paris"}',
    reasoning: 'Need the weather.',
  },
  { model: 'local/mistralai/Mistral-Small-3.2-24B-Instruct-2506', reply: 'get_weather{"city": "Paris"}' },
  { model: 'local/moonshotai/Kimi-K2-Instruct', reply: 'Checking.functions.get_weather:0{"city": "Paris"}', content: 'Checking.' },
  {
    model: 'local/meta-llama/Llama-3.1-8B-Instruct',
    reply: 'Checking.{"name": "get_weather", "parameters": {"city": "Paris"}}',
    content: 'Checking.',
  },
  {
    model: 'local/ibm-granite/granite-3.1-8b-instruct',
    reply: 'Checking.[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    content: 'Checking.',
  },
  {
    model: 'local/internlm/internlm2_5-7b-chat',
    reply: 'Checking.{"name": "get_weather", "parameters": {"city": "Paris"}}',
    content: 'Checking.',
  },
];

type Outcome = { content: string; reasoning: string; calls: string[]; finishReason: string | null; warnings: string[] };

let kit: GatewayWithOpenAiUpstream;

beforeAll(async () => {
  kit = await startGatewayWithOpenAiUpstream({ local: 'prompted' });
});

afterAll(async () => {
  await kit?.close();
});

async function ask(model: string, reply: string, stream: boolean): Promise<Outcome> {
  // Streamed a few characters at a time, so residue and markers are split across deltas.
  kit.upstream.enqueue({ type: 'chat', content: stream ? (reply.match(/.{1,3}/gsu) ?? []) : reply });
  const response = await postJson(`${kit.gateway.baseUrl}/v1/chat/completions`, {
    model,
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [weatherTool],
    stream,
  });
  expect(response.status).toBe(200);
  if (!stream) {
    const body = JSON.parse(response.text) as Record<string, any>;
    const choice = body['choices'][0];
    return {
      content: choice.message.content ?? '',
      reasoning: choice.message.reasoning_content ?? '',
      calls: (choice.message.tool_calls ?? []).map((call: any) => `${call.function.name} ${call.function.arguments}`),
      finishReason: choice.finish_reason,
      warnings: (body['diagnostics']?.warnings ?? []).map((warning: { code: string }) => warning.code),
    };
  }
  const outcome: Outcome = { content: '', reasoning: '', calls: [], finishReason: null, warnings: [] };
  const calls = new Map<number, { name: string; text: string }>();
  for (const line of response.text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const frame = JSON.parse(line.slice('data: '.length)) as Record<string, any>;
    const choice = frame['choices']?.[0];
    outcome.content += choice?.delta?.content ?? '';
    outcome.reasoning += choice?.delta?.reasoning_content ?? '';
    for (const call of choice?.delta?.tool_calls ?? []) {
      const entry = calls.get(call.index) ?? { name: call.function?.name ?? '', text: '' };
      entry.text += call.function?.arguments ?? '';
      calls.set(call.index, entry);
    }
    if (choice?.finish_reason) outcome.finishReason = choice.finish_reason;
    outcome.warnings.push(...(frame['diagnostics']?.warnings ?? []).map((warning: { code: string }) => warning.code));
  }
  outcome.calls = [...calls.values()].map((entry) => `${entry.name} ${entry.text}`);
  return outcome;
}

describe('a reply whose special tokens the upstream stripped', () => {
  it.each(strippedReplies.flatMap((entry) => [false, true].map((stream) => [entry.model, stream, entry] as const)))(
    '%s (streamed: %s) gives the call, finish_reason tool_calls and the warning',
    async (model, stream, entry) => {
      const outcome = await ask(model, entry.reply, stream);
      expect(outcome).toEqual({
        content: entry.content ?? '',
        reasoning: entry.reasoning ?? '',
        calls: ['get_weather {"city":"Paris"}'],
        finishReason: 'tool_calls',
        warnings: ['special-tokens-stripped'],
      });
    },
  );

  it('says nothing when the markers arrived', async () => {
    const reply = '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>';
    const outcome = await ask('local/openai/gpt-oss-20b', reply, true);
    expect(outcome).toMatchObject({ calls: ['get_weather {"city":"Paris"}'], finishReason: 'tool_calls', warnings: [] });
  });
});
