/**
 * Every recorded capture (test/fixtures/wire) through the gateway's Chat Completions route with the real
 * `openai` client: streamed captures to a streaming client, whole bodies to a non-streaming one, each
 * replayed whole, line by line, in 7-byte pieces (cutting multi-byte characters) and, for SSE, with CRLF.
 * What the client gets must be what the capture carries, and valid by OpenAI's schema.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openAiSchemaErrors } from '../helpers/openai-schema-validator.js';
import { listWireFixtures, wireServers, type ReplayOptions, type WireFixture } from '../helpers/replay-upstream.js';
import { captureContents, type CaptureContents } from './capture-contents.js';
import { replayModel, toolsFor, useReplayGateway } from './replay-gateway.js';

const replayGateway = useReplayGateway();

type ReceivedReply = {
  content: string;
  refusal: string;
  reasoning: string;
  calls: { id: string; name: string; arguments: string }[];
  finishReason: string | null | undefined;
  usage: OpenAI.CompletionUsage | undefined;
};

function request(fixture: WireFixture) {
  const tools = toolsFor(fixture);
  return {
    model: replayModel(fixture),
    messages: [{ role: 'user' as const, content: 'Replay the capture.' }],
    ...(tools ? { tools } : {}),
  };
}

async function streamedReply(fixture: WireFixture): Promise<ReceivedReply> {
  const stream = await replayGateway()
    .gateway.client()
    .chat.completions.create({ ...request(fixture), stream: true, stream_options: { include_usage: true } });
  const reply: ReceivedReply = { content: '', refusal: '', reasoning: '', calls: [], finishReason: undefined, usage: undefined };
  for await (const chunk of stream) {
    expect(openAiSchemaErrors('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    if (chunk.usage) reply.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    reply.content += choice.delta.content ?? '';
    reply.refusal += choice.delta.refusal ?? '';
    reply.reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? '';
    for (const fragment of choice.delta.tool_calls ?? []) {
      const call = (reply.calls[fragment.index] ??= { id: '', name: '', arguments: '' });
      call.id += fragment.id ?? '';
      call.name += fragment.function?.name ?? '';
      call.arguments += fragment.function?.arguments ?? '';
    }
    if (choice.finish_reason) reply.finishReason = choice.finish_reason;
  }
  return reply;
}

async function wholeReply(fixture: WireFixture): Promise<ReceivedReply> {
  const completion = await replayGateway().gateway.client().chat.completions.create(request(fixture));
  expect(openAiSchemaErrors('CreateChatCompletionResponse', completion)).toEqual([]);
  const choice = completion.choices[0];
  const message = choice?.message;
  return {
    content: message?.content ?? '',
    refusal: message?.refusal ?? '',
    reasoning: (message as { reasoning_content?: string } | undefined)?.reasoning_content ?? '',
    calls: (message?.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.type === 'function' ? call.function.name : '',
      arguments: call.type === 'function' ? call.function.arguments : '',
    })),
    finishReason: choice?.finish_reason,
    usage: completion.usage,
  };
}

function expectReplyCarries(reply: ReceivedReply, expected: CaptureContents): void {
  expect(reply.content).toBe(expected.text);
  expect(reply.refusal).toBe(expected.refusal);
  expect(reply.reasoning).toBe(expected.reasoning);
  expect(reply.calls.map((call) => call.name)).toEqual(expected.calls.map((call) => call.name));
  expect(reply.calls.map((call) => JSON.parse(call.arguments) as unknown)).toEqual(expected.calls.map((call) => call.arguments));
  for (const [index, call] of reply.calls.entries()) {
    const id = expected.calls[index]?.id;
    // Servers that name no call (Ollama, Gemini) get an id from the gateway; named calls keep theirs.
    if (id === undefined) expect(call.id).toMatch(/^\S+$/);
    else expect(call.id).toBe(id);
  }
  expect(reply.finishReason).toBe(expected.finishReason);
  if (expected.usage) {
    expect(reply.usage?.prompt_tokens).toBe(expected.usage.promptTokens);
    expect(reply.usage?.completion_tokens).toBe(expected.usage.completionTokens);
  }
}

function replayModes(fixture: WireFixture): [string, ReplayOptions][] {
  const modes: [string, ReplayOptions][] = [
    ['whole', {}],
    ['line by line', { chunking: { kind: 'lines' } }],
    ['in 7-byte pieces', { chunking: { kind: 'bytes', size: 7 } }],
  ];
  if (fixture.name.endsWith('.sse')) modes.push(['line by line with CRLF', { chunking: { kind: 'lines' }, lineEnding: 'crlf' }]);
  return modes;
}

describe.each(wireServers)('%s captures through /v1/chat/completions', (server) => {
  describe.each(listWireFixtures(server).map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const expected = captureContents(fixture);
    const read = fixture.delivery === 'stream' ? streamedReply : wholeReply;

    it.each(replayModes(fixture))(
      `reaches a ${fixture.delivery === 'stream' ? 'streaming' : 'non-streaming'} client as recorded, replayed %s`,
      async (_mode, options) => {
        replayGateway().upstream.replay(fixture, options);
        if (expected.error) await expect(read(fixture)).rejects.toThrow(expected.error);
        else expectReplyCarries(await read(fixture), expected);
      },
    );
  });
});
