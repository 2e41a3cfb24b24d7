/**
 * An outside tester's pass over replies that begin inside reasoning (each family's own closer) and Harmony
 * replies that begin inside the header: every inbound API, JSON and streamed in 1-character and random
 * pieces, with a fake OpenAI-compatible upstream that has no reasoning parser.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../helpers/gateway-with-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import type { StartedGateway } from '../helpers/start-gateway.js';

type Api = 'chat' | 'responses' | 'messages';
type Delivery = 'json' | 'one-character' | 'random';
/** What a client ends up with, whatever the API. */
type Outcome = { content: string; reasoning: string; calls: string[]; warnings: string[] };

const timeTool = { name: 'get_time', description: 'Get the current UTC time.', parameters: { type: 'object', properties: {} } };
const weatherTool = {
  name: 'get_weather',
  description: 'Get the weather.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const toolsFor: Record<Api, unknown[]> = {
  chat: [timeTool, weatherTool].map((tool) => ({ type: 'function', function: tool })),
  responses: [timeTool, weatherTool].map((tool) => ({ type: 'function', ...tool })),
  messages: [timeTool, weatherTool].map(({ parameters, ...tool }) => ({ ...tool, input_schema: parameters })),
};

let kit: GatewayWithOpenAiUpstream;
let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  kit = await startGatewayWithOpenAiUpstream({ local: 'auto', native: 'native' });
  ({ upstream, gateway } = kit);
});

afterAll(async () => {
  await kit?.close();
});

/** The reply cut into pieces: whole (the fake's own fragments), one character each, or at random cut points. */
function piecesOf(text: string, delivery: Delivery, seed: number): string | string[] {
  if (delivery === 'json') return text;
  if (delivery === 'one-character') return [...text];
  const [cuts] = fc.sample(fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 12 }), {
    seed,
    numRuns: 1,
  });
  const points = [0, ...(cuts ?? []).sort((left, right) => left - right), text.length];
  return points
    .slice(1)
    .map((point, index) => text.slice(points[index], point))
    .filter((piece) => piece !== '');
}

function dataFrames(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, any>);
}

const codes = (diagnostics: { warnings?: { code: string }[] } | undefined) => (diagnostics?.warnings ?? []).map((warning) => warning.code);
const callOf = (name: string, input: unknown) => `${name} ${typeof input === 'string' ? input : JSON.stringify(input)}`;

function chatOutcome(body: Record<string, any>, streamed: boolean, text: string): Outcome {
  const outcome: Outcome = { content: '', reasoning: '', calls: [], warnings: [] };
  if (!streamed) {
    const message = body['choices'][0].message;
    outcome.content = message.content ?? '';
    outcome.reasoning = message.reasoning_content ?? '';
    outcome.calls = (message.tool_calls ?? []).map((call: any) => callOf(call.function.name, call.function.arguments));
    outcome.warnings = codes(body['diagnostics']);
    return outcome;
  }
  const argumentsByIndex = new Map<number, { name: string; text: string }>();
  for (const frame of dataFrames(text)) {
    const delta = frame['choices']?.[0]?.delta ?? {};
    outcome.content += delta.content ?? '';
    outcome.reasoning += delta.reasoning_content ?? '';
    for (const call of delta.tool_calls ?? []) {
      const entry = argumentsByIndex.get(call.index) ?? { name: call.function?.name ?? '', text: '' };
      entry.text += call.function?.arguments ?? '';
      argumentsByIndex.set(call.index, entry);
    }
    outcome.warnings.push(...codes(frame['diagnostics']));
  }
  outcome.calls = [...argumentsByIndex.values()].map((entry) => callOf(entry.name, entry.text));
  return outcome;
}

function responsesOutcome(response: Record<string, any>): Outcome {
  const outcome: Outcome = { content: '', reasoning: '', calls: [], warnings: codes(response['diagnostics']) };
  for (const item of response['output'] as Record<string, any>[]) {
    if (item['type'] === 'reasoning') outcome.reasoning += (item['summary'] as { text: string }[]).map((part) => part.text).join('');
    if (item['type'] === 'message') outcome.content += (item['content'] as { text: string }[]).map((part) => part.text).join('');
    if (item['type'] === 'function_call') outcome.calls.push(callOf(item['name'], item['arguments']));
  }
  return outcome;
}

function messagesOutcome(message: Record<string, any>): Outcome {
  const outcome: Outcome = { content: '', reasoning: '', calls: [], warnings: codes(message['diagnostics']) };
  for (const block of message['content'] as Record<string, any>[]) {
    if (block['type'] === 'thinking') outcome.reasoning += block['thinking'];
    if (block['type'] === 'text') outcome.content += block['text'];
    if (block['type'] === 'tool_use') outcome.calls.push(callOf(block['name'], block['input']));
  }
  return outcome;
}

/** Messages streams rebuilt into the message they describe. */
function messagesStreamOutcome(text: string): Outcome {
  const blocks: Record<string, any>[] = [];
  let diagnostics: { warnings?: { code: string }[] } | undefined;
  for (const frame of dataFrames(text)) {
    if (frame['type'] === 'content_block_start') blocks[frame['index']] = { ...frame['content_block'], partial: '' };
    if (frame['type'] === 'content_block_delta') {
      const block = blocks[frame['index']]!;
      const delta = frame['delta'];
      if (delta.type === 'text_delta') block['text'] += delta.text;
      if (delta.type === 'thinking_delta') block['thinking'] += delta.thinking;
      if (delta.type === 'input_json_delta') block['partial'] += delta.partial_json;
    }
    if (frame['diagnostics']) diagnostics = frame['diagnostics'];
  }
  const content = blocks.map((block) =>
    block['type'] === 'tool_use' ? { ...block, input: JSON.parse(block['partial'] === '' ? '{}' : block['partial']) } : block,
  );
  return messagesOutcome({ content, diagnostics });
}

/** Sends one reply through one API in one delivery and reads what the client gets. */
async function exchange(api: Api, delivery: Delivery, model: string, reply: string, extra: Record<string, unknown> = {}): Promise<Outcome> {
  upstream.enqueue({ type: 'chat', content: piecesOf(reply, delivery, reply.length) });
  const stream = delivery !== 'json';
  const tools = toolsFor[api];
  switch (api) {
    case 'chat': {
      const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
        model,
        messages: [{ role: 'user', content: 'Time?' }],
        tools,
        stream,
        ...extra,
      });
      return chatOutcome(stream ? {} : JSON.parse(response.text), stream, response.text);
    }
    case 'responses': {
      const response = await postJson(`${gateway.baseUrl}/v1/responses`, { model, input: 'Time?', tools, stream, ...extra });
      if (!stream) return responsesOutcome(JSON.parse(response.text));
      const completed = dataFrames(response.text).find((frame) => frame['type'] === 'response.completed')!;
      return responsesOutcome(completed['response']);
    }
    case 'messages': {
      const response = await postJson(`${gateway.baseUrl}/v1/messages`, {
        model,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Time?' }],
        tools,
        stream,
        ...extra,
      });
      return stream ? messagesStreamOutcome(response.text) : messagesOutcome(JSON.parse(response.text));
    }
  }
}

const apis: Api[] = ['chat', 'responses', 'messages'];
const deliveries: Delivery[] = ['json', 'one-character', 'random'];
const everyMode = apis.flatMap((api) => deliveries.map((delivery) => [api, delivery] as const));
/** Whitespace between blocks is content too; what matters here is that no markup and no reasoning leaks. */
const trimmed = (outcome: Outcome) => ({ ...outcome, content: outcome.content.trim(), reasoning: outcome.reasoning.trim() });

describe('a reply that begins inside reasoning, closed with the family’s own closer', () => {
  const thinking = 'The user wants the time.';
  // Models whose template opens the block, so the gateway assumes it (src/config/model-families.json).
  const assumed = [
    { model: 'local/zai-org/GLM-4.7', close: '</think>', call: '<tool_call>get_time</tool_call>' },
    {
      model: 'local/MiniMaxAI/MiniMax-M2',
      close: '</think>',
      call: '<minimax:tool_call>\n<invoke name="get_time">\n</invoke>\n</minimax:tool_call>',
    },
    {
      model: 'local/nvidia/NVIDIA-Nemotron-Nano-9B-v2',
      close: '</think>',
      call: '<TOOLCALL>[{"name": "get_time", "arguments": {}}]</TOOLCALL>',
    },
    {
      model: 'local/moonshotai/Kimi-K2-Thinking',
      close: '</think>',
      call: '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_time:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
    },
    {
      model: 'local/ServiceNow-AI/Apriel-1.6-15b-Thinker',
      close: '[BEGIN FINAL RESPONSE]',
      call: '<tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>',
    },
  ];

  for (const { model, close, call } of assumed) {
    it.each(everyMode)(`${model}: %s, %s: the text before ${close} is reasoning, then the call`, async (api, delivery) => {
      const outcome = trimmed(await exchange(api, delivery, model, `${thinking}\n${close}\n\n${call}`));
      expect(outcome).toEqual({ content: '', reasoning: thinking, calls: [callOf('get_time', {})], warnings: [] });
    });
  }

  it.each(everyMode)('an empty opened block leaves no trace (%s, %s)', async (api, delivery) => {
    const outcome = await exchange(api, delivery, 'local/zai-org/GLM-4.7', '</think>\n\nIt is noon.');
    expect(trimmed(outcome)).toEqual({ content: 'It is noon.', reasoning: '', calls: [], warnings: [] });
  });

  // A model not assumed to think: the orphan closer is removed, the text before it stays content, and a warning says so.
  const notAssumed = [
    { model: 'local/ByteDance-Seed/Seed-OSS-36B-Instruct', close: '</seed:think>' },
    { model: 'local/CohereLabs/command-a-reasoning-08-2025', close: '<|END_THINKING|>' },
    { model: 'local/NousResearch/Hermes-3-Llama-3.1-8B', close: '</think>' },
  ];
  for (const { model, close } of notAssumed) {
    it.each(everyMode)(`${model}: %s, %s: an orphan ${close} is removed and reported`, async (api, delivery) => {
      const outcome = await exchange(api, delivery, model, `${thinking}${close}It is noon.`);
      expect(outcome.content).toBe(`${thinking}It is noon.`);
      expect(outcome.reasoning).toBe('');
      // Messages has no diagnostics field (Anthropic's envelope); Chat Completions and Responses carry the warning.
      if (api !== 'messages') expect(outcome.warnings).toEqual(['reasoning-orphan-close']);
    });
  }

  it.each(everyMode)('a reply that never closes the opened block is delivered as content too (%s, %s)', async (api, delivery) => {
    const outcome = await exchange(api, delivery, 'local/zai-org/GLM-4.7', 'It is noon.');
    expect(outcome.content).toBe('It is noon.');
    if (api !== 'messages') expect(outcome.warnings).toEqual(['reasoning-unclosed']);
  });

  const switchesOff: [Api, Record<string, unknown>][] = [
    ['chat', { reasoning_effort: 'none' }],
    ['chat', { chat_template_kwargs: { enable_thinking: false } }],
    ['responses', { reasoning: { effort: 'none' } }],
    ['messages', { thinking: { type: 'disabled' } }],
  ];
  it.each(switchesOff)('%s with %j assumes nothing: the orphan closer is removed, the text stays content', async (api, extra) => {
    for (const delivery of deliveries) {
      const outcome = await exchange(api, delivery, 'local/zai-org/GLM-4.7', `${thinking}</think>It is noon.`, extra);
      expect(outcome.content, delivery).toBe(`${thinking}It is noon.`);
      expect(outcome.reasoning, delivery).toBe('');
    }
  });

  it.each(everyMode)('the native lane passes an upstream’s own reasoning_content through (%s, %s)', async (api, delivery) => {
    upstream.enqueue({ type: 'chat', reasoning: thinking, content: 'It is noon.', fragmentSize: delivery === 'one-character' ? 1 : 4 });
    const stream = delivery !== 'json';
    const outcome = await (async () => {
      switch (api) {
        case 'chat': {
          const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
            model: 'native/zai-org/GLM-4.7',
            messages: [{ role: 'user', content: 'Time?' }],
            stream,
          });
          return chatOutcome(stream ? {} : JSON.parse(response.text), stream, response.text);
        }
        case 'responses': {
          const response = await postJson(`${gateway.baseUrl}/v1/responses`, { model: 'native/zai-org/GLM-4.7', input: 'Time?', stream });
          return responsesOutcome(
            stream
              ? dataFrames(response.text).find((frame) => frame['type'] === 'response.completed')!['response']
              : JSON.parse(response.text),
          );
        }
        case 'messages': {
          const body = { model: 'native/zai-org/GLM-4.7', max_tokens: 100, messages: [{ role: 'user', content: 'Time?' }], stream };
          const response = await postJson(`${gateway.baseUrl}/v1/messages`, body);
          return stream ? messagesStreamOutcome(response.text) : messagesOutcome(JSON.parse(response.text));
        }
      }
    })();
    expect(outcome).toEqual({ content: 'It is noon.', reasoning: thinking, calls: [], warnings: [] });
  });
});

describe('Harmony replies that begin inside the header (the template wrote <|start|>assistant)', () => {
  const model = 'local/openai/gpt-oss-20b';
  const weather = callOf('get_weather', { city: 'Paris' });
  const replies: [string, string, Partial<Outcome>][] = [
    ['with <|constrain|>', ' to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Paris"}<|call|>', {}],
    ['without <|constrain|>', ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|>', {}],
    [
      'with the analysis channel first',
      '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
      { reasoning: 'Need the weather.' },
    ],
    [
      'beginning inside the analysis header',
      'analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
      { reasoning: 'Need the weather.' },
    ],
    [
      'with several calls',
      ' to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Paris"}<|call|><|start|>assistant to=functions.get_time<|channel|>commentary <|constrain|>json<|message|>{}<|call|>',
      { calls: [weather, callOf('get_time', {})] },
    ],
  ];

  for (const [title, reply, expected] of replies) {
    it.each(everyMode)(`${title}: %s, %s`, async (api, delivery) => {
      const outcome = trimmed(await exchange(api, delivery, model, reply));
      expect(outcome).toEqual({ content: '', reasoning: '', calls: [weather], warnings: [], ...expected });
    });
  }

  it.each(everyMode)('cut off mid-header: no call, no markup in the content (%s, %s)', async (api, delivery) => {
    const outcome = await exchange(api, delivery, model, ' to=functions.get_weather<|channel|>comm');
    expect(outcome.calls).toEqual([]);
    expect(outcome.content).toBe('');
    expect(outcome.reasoning).toBe('');
  });
});
