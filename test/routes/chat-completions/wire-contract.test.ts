/**
 * The OpenAI streaming wire contract, read as raw SSE: role first, one full first
 * fragment per call then index + arguments only, finish_reason on the last choice chunk, usage chunk, [DONE].
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiQuirk, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { splitIntoPieces } from '../../helpers/loopback-server.js';
import { openAiSchemaErrors } from '../../helpers/openai-schema-validator.js';
import { postJson, sseChunks } from '../../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';
import { providerKinds } from './provider-kinds.js';

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;
const kinds = providerKinds();

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  await Promise.all(kinds.map((kind) => kind.start()));
  gateway = await startGateway({
    providers: {
      fake: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
      ...Object.fromEntries(kinds.map((kind) => [kind.name, kind.providerEntry()])),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  await Promise.all(kinds.map((kind) => kind.close()));
});

const tools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { timezone: { type: 'string' } } } } },
];

const messages = [{ role: 'user', content: 'Weather and time in Paris?' }];

type Choice = { index: number; delta: Record<string, unknown>; logprobs: unknown; finish_reason: string | null };

function choicesOf(chunk: Record<string, unknown>): Choice[] {
  return chunk.choices as Choice[];
}

type AssembledCall = { id: string; name: string; arguments: string };

/** Checks every rule of the contract on a chunk sequence and returns what an SDK would assemble. */
function assembleChecked(chunks: Record<string, unknown>[], options: { includeUsage: boolean }) {
  expect(chunks.length).toBeGreaterThan(1);
  for (const chunk of chunks) expect(openAiSchemaErrors('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
  expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  const choiceChunks = options.includeUsage ? chunks.slice(0, -1) : chunks;
  if (options.includeUsage) {
    const usageChunk = chunks.at(-1) as Record<string, unknown>;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
    });
  }
  for (const chunk of choiceChunks) expect(chunk.usage).toBeUndefined();
  const first = choicesOf(choiceChunks[0] as Record<string, unknown>)[0];
  expect(first?.delta.role).toBe('assistant');
  const finishes = choiceChunks.map((chunk) => choicesOf(chunk)[0]?.finish_reason ?? null);
  expect(finishes.slice(0, -1).every((reason) => reason === null)).toBe(true);
  const calls: AssembledCall[] = [];
  let content = '';
  for (const chunk of choiceChunks) {
    const choices = choicesOf(chunk);
    expect(choices).toHaveLength(1);
    const delta = choices[0]?.delta ?? {};
    if (typeof delta.content === 'string') content += delta.content;
    for (const fragment of (delta.tool_calls ?? []) as Record<string, unknown>[]) {
      const index = fragment.index as number;
      expect(Number.isInteger(index)).toBe(true);
      const functionPart = fragment.function as Record<string, unknown>;
      if (calls[index] === undefined) {
        // A call's first fragment: index 0..n in order, with everything an SDK needs to create it.
        expect(index).toBe(calls.length);
        expect(Object.keys(fragment).sort()).toEqual(['function', 'id', 'index', 'type']);
        expect(fragment.type).toBe('function');
        expect(typeof fragment.id).toBe('string');
        expect(functionPart).toEqual({ name: expect.any(String), arguments: '' });
        calls[index] = { id: fragment.id as string, name: functionPart.name as string, arguments: '' };
      } else {
        // Later fragments: only index and argument text (the Python SDK concatenates repeated strings).
        expect(Object.keys(fragment).sort()).toEqual(['function', 'index']);
        expect(Object.keys(functionPart)).toEqual(['arguments']);
        (calls[index] as AssembledCall).arguments += functionPart.arguments as string;
      }
    }
  }
  return { calls, content, finishReason: finishes.at(-1) };
}

describe('raw SSE from /v1/chat/completions', () => {
  it('follows the wire contract exactly for text followed by two parallel fragmented calls', async () => {
    const weatherArguments = '{"city":"Paris"}';
    const timeArguments = '{"timezone":"Europe/Paris"}';
    upstream.enqueue({
      type: 'chat',
      content: ['Let me', ' ', 'check.'],
      toolCalls: [
        { id: 'call_w', name: 'get_weather', arguments: weatherArguments },
        { id: 'call_t', name: 'get_time', arguments: timeArguments },
      ],
      fragmentSize: 4,
      usage: { prompt_tokens: 30, completion_tokens: 12 },
    });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'fake/qwen-test',
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const chunks = sseChunks(response.text);
    const first = chunks[0] as Record<string, unknown>;
    expect(first).toMatchObject({ object: 'chat.completion.chunk', model: 'fake/qwen-test', id: expect.stringMatching(/^chatcmpl-/) });
    expect(typeof first.created).toBe('number');

    const deltas = chunks.map((chunk) => (chunk.choices as Choice[])[0]?.delta);
    const argumentDeltas = (index: number, text: string) =>
      splitIntoPieces(text, 4).map((piece) => ({ tool_calls: [{ index, function: { arguments: piece } }] }));
    expect(deltas).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Let me' },
      { content: ' ' },
      { content: 'check.' },
      { tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      ...argumentDeltas(0, weatherArguments),
      { tool_calls: [{ index: 1, id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '' } }] },
      ...argumentDeltas(1, timeArguments),
      {},
      undefined,
    ]);
    const finishReasons = chunks.map((chunk) => (chunk.choices as Choice[])[0]?.finish_reason);
    expect(finishReasons.at(-2)).toBe('tool_calls');
    expect(finishReasons.slice(0, -2).every((reason) => reason === null)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 } });
    expect(assembleChecked(chunks, { includeUsage: true }).calls).toEqual([
      { id: 'call_w', name: 'get_weather', arguments: weatherArguments },
      { id: 'call_t', name: 'get_time', arguments: timeArguments },
    ]);
  });

  it('sends no usage chunk when stream_options.include_usage is not set', async () => {
    upstream.enqueue({ type: 'chat', content: 'Hi' });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, { model: 'fake/qwen-test', messages, stream: true });
    const chunks = sseChunks(response.text);
    expect(chunks.every((chunk) => (chunk.choices as unknown[]).length === 1)).toBe(true);
    expect(assembleChecked(chunks, { includeUsage: false })).toMatchObject({ content: 'Hi', finishReason: 'stop' });
    // The gateway always asks the upstream for usage; whether the client gets it is the client's choice.
    expect(upstream.lastChatBody().stream_options).toEqual({ include_usage: true });
  });

  const quirkCases: { quirks: FakeOpenAiQuirk[]; title: string }[] = [
    { quirks: ['first-tool-delta-without-name'], title: 'a first tool delta without a name' },
    { quirks: ['arguments-as-object'], title: 'arguments sent as an object' },
    { quirks: ['ids-on-every-fragment'], title: 'ids repeated on every fragment' },
    { quirks: ['index-collision'], title: 'parallel calls colliding on index 0 with different ids' },
    { quirks: ['interleaved-calls'], title: 'interleaved fragments of parallel calls' },
  ];

  it.each(quirkCases)('repairs $title into the contract', async ({ quirks }) => {
    upstream.enqueue({
      type: 'chat',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } },
        { id: 'call_b', name: 'get_time', arguments: { timezone: 'UTC' } },
      ],
      fragmentSize: 2,
      quirks,
    });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'fake/qwen-test',
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const assembled = assembleChecked(sseChunks(response.text), { includeUsage: true });
    expect(assembled.finishReason).toBe('tool_calls');
    expect(assembled.calls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: 'call_b', name: 'get_time', arguments: '{"timezone":"UTC"}' },
    ]);
  });

  it('says tool_calls when the upstream sent calls but no finish_reason, and stop without calls', async () => {
    upstream.enqueue(
      { type: 'chat', toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: '{}' }], finishReason: null },
      { type: 'chat', content: 'plain', finishReason: null },
    );
    const withCalls = await postJson(`${gateway.baseUrl}/v1/chat/completions`, { model: 'fake/qwen-test', messages, tools, stream: true });
    expect(assembleChecked(sseChunks(withCalls.text), { includeUsage: false }).finishReason).toBe('tool_calls');
    const plain = await postJson(`${gateway.baseUrl}/v1/chat/completions`, { model: 'fake/qwen-test', messages, stream: true });
    expect(assembleChecked(sseChunks(plain.text), { includeUsage: false }).finishReason).toBe('stop');
  });

  it('corrects an upstream that says stop after returning calls', async () => {
    upstream.enqueue({
      type: 'chat',
      toolCalls: [{ id: 'call_y', name: 'get_time', arguments: '{"timezone":"UTC"}' }],
      finishReason: 'stop',
    });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, { model: 'fake/qwen-test', messages, tools, stream: true });
    expect(assembleChecked(sseChunks(response.text), { includeUsage: false }).finishReason).toBe('tool_calls');
  });

  it('sends a usage chunk with choices: [] even when the upstream reported no usage, without inventing counts', async () => {
    upstream.enqueue({ type: 'chat', content: 'no usage here', usage: null });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'fake/qwen-test',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const frames = sseChunks(response.text);
    const last = frames.at(-1) as Record<string, unknown>;
    expect(last.choices).toEqual([]);
    expect(last.usage).toBeNull();
  });

  it.each(kinds.map((kind) => [kind.type, kind] as const))('holds for parallel calls from a %s upstream', async (_type, kind) => {
    kind.scriptToolCalls(
      [
        { id: `${kind.name}_c1`, name: 'get_weather', arguments: { city: 'Lima' } },
        { id: `${kind.name}_c2`, name: 'get_time', arguments: { timezone: 'America/Lima' } },
      ],
      1,
    );
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: `${kind.name}/${kind.model}`,
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const assembled = assembleChecked(sseChunks(response.text), { includeUsage: true });
    expect(assembled.finishReason).toBe('tool_calls');
    expect(assembled.calls).toEqual([
      { id: `${kind.name}_c1`, name: 'get_weather', arguments: '{"city":"Lima"}' },
      { id: `${kind.name}_c2`, name: 'get_time', arguments: '{"timezone":"America/Lima"}' },
    ]);
  });
});

describe('non-streaming body', () => {
  it.each(kinds.map((kind) => [kind.type, kind] as const))(
    'from a %s upstream carries refusal: null and logprobs: null and fits the official schema',
    async (_type, kind) => {
      kind.scriptToolCalls([{ id: `${kind.name}_only`, name: 'get_weather', arguments: { city: 'Rome' } }], 3);
      const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, { model: `${kind.name}/${kind.model}`, messages, tools });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = JSON.parse(response.text) as Record<string, unknown>;
      expect(openAiSchemaErrors('CreateChatCompletionResponse', body)).toEqual([]);
      expect(body).toMatchObject({
        object: 'chat.completion',
        model: `${kind.name}/${kind.model}`,
        choices: [
          {
            index: 0,
            logprobs: null,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [{ id: `${kind.name}_only`, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }],
            },
          },
        ],
        usage: kind.usage,
      });
    },
  );

  it('is checked by a schema that does reject a message without refusal or a choice without logprobs', () => {
    const valid = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'x', refusal: null }, logprobs: null, finish_reason: 'stop' }],
    };
    expect(openAiSchemaErrors('CreateChatCompletionResponse', valid)).toEqual([]);
    const withoutRefusal = structuredClone(valid);
    delete (withoutRefusal.choices[0]!.message as { refusal?: null }).refusal;
    expect(openAiSchemaErrors('CreateChatCompletionResponse', withoutRefusal).join()).toMatch(/refusal/);
    const withoutLogprobs = structuredClone(valid);
    delete (withoutLogprobs.choices[0] as { logprobs?: null }).logprobs;
    expect(openAiSchemaErrors('CreateChatCompletionResponse', withoutLogprobs).join()).toMatch(/logprobs/);
  });

  it('keeps text content a string and fits the schema for a plain answer', async () => {
    upstream.enqueue({ type: 'chat', content: 'Just text.' });
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, { model: 'fake/qwen-test', messages });
    const body = JSON.parse(response.text) as { choices: { message: Record<string, unknown> }[] };
    expect(openAiSchemaErrors('CreateChatCompletionResponse', body)).toEqual([]);
    expect(body.choices[0]?.message).toEqual({ role: 'assistant', content: 'Just text.', refusal: null });
  });
});
