/**
 * The Anthropic captures through the gateway's own Messages route (/v1/messages), streamed and whole,
 * replayed whole and in 5-byte pieces: what an Anthropic client gets back must be what Anthropic sent,
 * stop reason included, in frames that are each `event: T` + `data: {"type":T,…}`.
 */
import { describe, expect, it } from 'vitest';
import { listWireFixtures, type ReplayOptions, type WireFixture } from '../helpers/replay-upstream.js';
import { anthropicEvents, post, type WireEvent } from '../routes/messages/messages-test-kit.js';
import { captureContents, type CaptureContents } from './capture-contents.js';
import { replayModel, toolsFor, useReplayGateway } from './replay-gateway.js';

const replayGateway = useReplayGateway();

type MessagesReply = {
  text: string;
  thinking: string;
  signature: string;
  calls: { id: string; name: string; input: unknown }[];
  stopReason: unknown;
  usage: { input: unknown; output: unknown };
  errors: string[];
};

function messagesBody(fixture: WireFixture): Record<string, unknown> {
  const tools = toolsFor(fixture)?.map((tool) => ({ name: tool.function.name, input_schema: { type: 'object' } }));
  return {
    model: replayModel(fixture),
    max_tokens: 1024,
    stream: fixture.delivery === 'stream',
    messages: [{ role: 'user', content: 'Replay the capture.' }],
    ...(tools ? { tools } : {}),
  };
}

/** Folds the gateway's Anthropic stream the way Anthropic's SDK folds one. */
function foldEvents(events: WireEvent[]): MessagesReply {
  const reply: MessagesReply = {
    text: '',
    thinking: '',
    signature: '',
    calls: [],
    stopReason: undefined,
    usage: { input: undefined, output: undefined },
    errors: [],
  };
  const inputs: string[] = [];
  for (const event of events) {
    if (event.type === 'error') reply.errors.push(String((event.error as { message?: unknown }).message));
    if (event.type === 'message_start') reply.usage.input = (event.message as { usage?: { input_tokens?: unknown } }).usage?.input_tokens;
    const block = event.content_block as { type: string; id: string; name: string } | undefined;
    if (event.type === 'content_block_start' && block?.type === 'tool_use') {
      reply.calls.push({ id: block.id, name: block.name, input: {} });
      inputs.push('');
    }
    const delta = event.delta as Record<string, unknown> | undefined;
    if (event.type === 'content_block_delta' && delta?.type === 'text_delta') reply.text += String(delta.text);
    if (event.type === 'content_block_delta' && delta?.type === 'thinking_delta') reply.thinking += String(delta.thinking);
    if (event.type === 'content_block_delta' && delta?.type === 'signature_delta') reply.signature += String(delta.signature);
    if (event.type === 'content_block_delta' && delta?.type === 'input_json_delta') inputs[inputs.length - 1] += String(delta.partial_json);
    if (event.type === 'message_delta') {
      reply.stopReason = delta?.stop_reason;
      const usage = event.usage as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
      // message_delta's counts are cumulative and win over message_start's, as Anthropic's SDKs merge them.
      if (usage?.input_tokens !== undefined) reply.usage.input = usage.input_tokens;
      reply.usage.output = usage?.output_tokens;
    }
  }
  for (const [index, text] of inputs.entries()) if (text !== '') (reply.calls[index] as { input: unknown }).input = JSON.parse(text);
  return reply;
}

function wholeMessage(body: Record<string, unknown>): MessagesReply {
  const content = (body.content ?? []) as Record<string, unknown>[];
  const usage = body.usage as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
  return {
    text: content.map((block) => (block.type === 'text' ? String(block.text) : '')).join(''),
    thinking: content.map((block) => (block.type === 'thinking' ? String(block.thinking) : '')).join(''),
    signature: content.map((block) => (block.type === 'thinking' ? String(block.signature) : '')).join(''),
    calls: content
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: String(block.id), name: String(block.name), input: block.input })),
    stopReason: body.stop_reason,
    usage: { input: usage?.input_tokens, output: usage?.output_tokens },
    errors: body.type === 'error' ? [String((body.error as { message?: unknown }).message)] : [],
  };
}

function expectMessageCarries(reply: MessagesReply, expected: CaptureContents): void {
  expect(reply.errors).toEqual([]);
  expect(reply.text).toBe(expected.text);
  expect(reply.thinking).toBe(expected.reasoning);
  expect(reply.signature).toBe(expected.reasoningSignature);
  expect(reply.calls).toEqual(expected.calls.map((call) => ({ id: call.id, name: call.name, input: call.arguments })));
  expect(reply.stopReason).toBe(expected.rawFinish);
  if (expected.usage) expect(reply.usage).toEqual({ input: expected.usage.promptTokens, output: expected.usage.completionTokens });
}

const modes: [string, ReplayOptions][] = [
  ['whole', {}],
  ['in 5-byte pieces', { chunking: { kind: 'bytes', size: 5 } }],
];

describe.each(listWireFixtures('anthropic').map((fixture) => [fixture.name, fixture] as const))(
  'anthropic %s through /v1/messages',
  (_name, fixture) => {
    const expected = captureContents(fixture);

    it.each(modes)('reaches an Anthropic client as Anthropic sent it, replayed %s', async (_mode, options) => {
      replayGateway().upstream.replay(fixture, options);
      const response = await post(`${replayGateway().gateway.baseUrl}/v1/messages`, messagesBody(fixture));
      const reply =
        fixture.delivery === 'stream' && response.status === 200
          ? foldEvents(anthropicEvents(response.text))
          : wholeMessage(JSON.parse(response.text) as Record<string, unknown>);
      if (expected.error) {
        expect(reply.errors.join(' ')).toContain(expected.error);
        return;
      }
      expect(response.status).toBe(200);
      expectMessageCarries(reply, expected);
    });
  },
);
