/**
 * A declined request on the Responses API is a `refusal` part of the message (OpenAI's `RefusalContent`,
 * streamed as `response.refusal.delta` / `.done`), not output_text, whichever upstream declined: Claude
 * (`stop_reason: "refusal"` with `stop_details`, Anthropic's own capture in
 * test/fixtures/wire/anthropic/refusal-streamed.sse) or OpenAI (the words in `refusal` instead of `content`,
 * OpenAI's own capture in test/fixtures/wire/openai/refusal-streamed.sse). The real `openai` client reads both.
 */
import { describe, expect, it } from 'vitest';
import { claudeWholeRefusal } from '../../helpers/claude-refusal-fixture.js';
import { readWireFixture, type WireFixture, type WireServer } from '../../helpers/replay-upstream.js';
import { captureContents } from '../../wire-replay/capture-contents.js';
import { useReplayGateway } from '../../wire-replay/replay-gateway.js';
import { eventTypes, expectValidResponseObject, expectWellFormedStream, postRawSse } from './responses-test-kit.js';

const replayGateway = useReplayGateway();

const claudeCapture = readWireFixture('anthropic', 'refusal-streamed.sse');
const openAiCapture = readWireFixture('openai', 'refusal-streamed.sse');
/** Claude's explanation, and OpenAI's words, as each capture carries them. */
const explanation = captureContents(claudeCapture).refusal;
const openAiWords = captureContents(openAiCapture).refusal;

function wholeFixture(server: WireServer, body: Record<string, unknown>): WireFixture {
  const text = JSON.stringify(body);
  return {
    server,
    name: 'refusal-whole.json',
    protocol: server === 'anthropic' ? 'anthropic-messages' : 'openai-chat',
    delivery: 'whole',
    bytes: Buffer.from(text),
    text,
  };
}

describe('a Claude refusal on the Responses API', () => {
  it('streams the explanation as a refusal part the SDK accumulates; the response is incomplete (content_filter)', async () => {
    const { gateway, upstream } = replayGateway();
    upstream.replay(claudeCapture);
    const final = await gateway.client().responses.stream({ model: 'anthropic/claude-opus-4-7', input: 'x' }).finalResponse();
    expectValidResponseObject(final);
    expect(explanation).not.toBe('');
    expect(final.output).toHaveLength(1);
    expect(final.output[0]).toMatchObject({ type: 'message', content: [{ type: 'refusal', refusal: explanation }] });
    expect(final.output_text).toBe('');
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details).toEqual({ reason: 'content_filter' });
  });

  it('sends the refusal events OpenAI defines, each valid by its schema', async () => {
    const { gateway, upstream } = replayGateway();
    upstream.replay(claudeCapture);
    const result = await postRawSse(gateway.baseUrl, { model: 'anthropic/claude-opus-4-7', input: 'x' });
    expectWellFormedStream(result);
    expect(eventTypes(result).filter((type) => type.includes('refusal') || type.includes('content_part'))).toEqual([
      'response.content_part.added',
      'response.refusal.delta',
      'response.refusal.done',
      'response.content_part.done',
    ]);
    expect(eventTypes(result)).not.toContain('response.output_text.delta');
  });

  it('streams the words Claude wrote before the refusal as output_text, then the refusal as the next part', async () => {
    const { gateway, upstream } = replayGateway();
    // The capture with the words Claude got out before its classifier stopped it (the docs' example: "Hello..").
    const text = claudeCapture.text.replace(
      'event: content_block_stop',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello.."}}\n\nevent: content_block_stop',
    );
    upstream.replay({ ...claudeCapture, text, bytes: Buffer.from(text) });
    const stream = gateway.client().responses.stream({ model: 'anthropic/claude-opus-4-7', input: 'x' });
    const parts: { type: string; contentIndex: number }[] = [];
    stream.on('response.content_part.added', (event) => parts.push({ type: event.part.type, contentIndex: event.content_index }));
    const final = await stream.finalResponse();
    expectValidResponseObject(final);
    expect(parts).toEqual([
      { type: 'output_text', contentIndex: 0 },
      { type: 'refusal', contentIndex: 1 },
    ]);
    expect(final.output).toHaveLength(1);
    expect(final.output[0]).toMatchObject({
      type: 'message',
      content: [
        { type: 'output_text', text: 'Hello..' },
        { type: 'refusal', refusal: explanation },
      ],
    });
    expect(final.output_text).toBe('Hello..');
  });

  it('keeps the words Claude wrote as output_text and adds the explanation as a refusal part (whole reply)', async () => {
    const { gateway, upstream } = replayGateway();
    const words = 'Here is how to';
    upstream.replay(claudeWholeRefusal(words, { type: 'refusal', category: 'cyber', explanation }));
    const response = await gateway.client().responses.create({ model: 'anthropic/claude-opus-4-7', input: 'x' });
    expectValidResponseObject(response);
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({
      type: 'message',
      content: [
        { type: 'output_text', text: words },
        { type: 'refusal', refusal: explanation },
      ],
    });
    expect(response.output_text).toBe(words);
  });
});

describe('an OpenAI refusal on the Responses API', () => {
  it('streams the words as a refusal part, not output_text; the response is completed, as OpenAI ends it', async () => {
    const { gateway, upstream } = replayGateway();
    upstream.replay(openAiCapture);
    const stream = gateway.client().responses.stream({ model: 'openai/gpt-4o-2024-08-06', input: 'x' });
    let refusalDeltas = '';
    stream.on('response.refusal.delta', (event) => {
      refusalDeltas += event.delta;
    });
    const final = await stream.finalResponse();
    expectValidResponseObject(final);
    expect(openAiWords).not.toBe('');
    expect(refusalDeltas).toBe(openAiWords);
    expect(final.output).toHaveLength(1);
    expect(final.output[0]).toMatchObject({ type: 'message', content: [{ type: 'refusal', refusal: openAiWords }] });
    expect(final.output_text).toBe('');
    expect(final.status).toBe('completed');
  });

  it('returns a whole reply’s refusal as a refusal part', async () => {
    const { gateway, upstream } = replayGateway();
    // OpenAI's whole shape (https://platform.openai.com/docs/guides/structured-outputs#refusals): content null, the words in refusal.
    upstream.replay(
      wholeFixture('openai', {
        id: 'chatcmpl-refusal',
        object: 'chat.completion',
        created: 1727346172,
        model: 'gpt-4o-2024-08-06',
        choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: openAiWords }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 79, completion_tokens: 11, total_tokens: 90 },
      }),
    );
    const response = await gateway.client().responses.create({ model: 'openai/gpt-4o-2024-08-06', input: 'x' });
    expectValidResponseObject(response);
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({ type: 'message', content: [{ type: 'refusal', refusal: openAiWords }] });
    expect(response.output_text).toBe('');
  });
});
