/**
 * A Claude refusal (`stop_reason: "refusal"`) on Chat Completions is where OpenAI puts a refusal: in
 * `message.refusal` (streamed as `delta.refusal`), not in `content`. The streamed case replays Anthropic's
 * own capture (test/fixtures/wire/anthropic/refusal-streamed.sse: an empty text block, then `stop_details`).
 */
import { describe, expect, it } from 'vitest';
import { claudeWholeRefusal } from '../../helpers/claude-refusal-fixture.js';
import { readWireFixture, type WireFixture } from '../../helpers/replay-upstream.js';
import { useReplayGateway } from '../../wire-replay/replay-gateway.js';

const replayGateway = useReplayGateway();
const explanation = 'This request was refused due to policy.';

/** Anthropic's capture with the words Claude got out before its classifier stopped it (the docs' example: "Hello.."). */
function withWordsBeforeRefusal(words: string): WireFixture {
  const capture = readWireFixture('anthropic', 'refusal-streamed.sse');
  const text = capture.text.replace(
    'event: content_block_stop',
    `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: words } })}\n\nevent: content_block_stop`,
  );
  return { ...capture, text, bytes: Buffer.from(text) };
}

describe('a Claude refusal on Chat Completions', () => {
  it('streams the explanation as delta.refusal, content left empty', async () => {
    const { gateway, upstream } = replayGateway();
    upstream.replay(readWireFixture('anthropic', 'refusal-streamed.sse'));
    const stream = await gateway.client().chat.completions.create({
      model: 'anthropic/claude-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    let content = '';
    let refusal = '';
    let finishReason: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? '';
      refusal += choice?.delta.refusal ?? '';
      finishReason = choice?.finish_reason ?? finishReason;
    }
    expect({ content, refusal, finishReason }).toEqual({ content: '', refusal: explanation, finishReason: 'content_filter' });
  });

  it('streams the words Claude wrote before its refusal as content, then the explanation as delta.refusal', async () => {
    const { gateway, upstream } = replayGateway();
    upstream.replay(withWordsBeforeRefusal('Hello..'));
    const completion = await gateway
      .client()
      .chat.completions.stream({ model: 'anthropic/claude-opus-4-7', messages: [{ role: 'user', content: 'x' }] })
      .finalChatCompletion();
    expect(completion.choices[0]?.message).toMatchObject({ content: 'Hello..', refusal: explanation });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
  });

  it('keeps a whole reply’s words as content and its explanation as message.refusal, as the stream sends them', async () => {
    const { gateway, upstream } = replayGateway();
    const words = 'Here is how to';
    upstream.replay(claudeWholeRefusal(words, { type: 'refusal', category: 'cyber', explanation }));
    const completion = await gateway.client().chat.completions.create({
      model: 'anthropic/claude-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.choices[0]?.message).toMatchObject({ content: words, refusal: explanation });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
  });

  it('marks a whole refusal without words or explanation with refusal "", content null', async () => {
    const { gateway, upstream } = replayGateway();
    upstream.replay(claudeWholeRefusal('', { type: 'refusal', category: null, explanation: null }));
    const completion = await gateway.client().chat.completions.create({
      model: 'anthropic/claude-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: '' });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
  });
});
