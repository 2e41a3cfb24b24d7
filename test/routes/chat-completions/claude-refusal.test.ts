/**
 * A Claude refusal (`stop_reason: "refusal"`) on Chat Completions is where OpenAI puts a refusal: in
 * `message.refusal` (streamed as `delta.refusal`), not in `content`. The streamed case replays Anthropic's
 * own capture (test/fixtures/wire/anthropic/refusal-streamed.sse: an empty text block, then `stop_details`).
 */
import { describe, expect, it } from 'vitest';
import { readWireFixture, type WireFixture } from '../../helpers/replay-upstream.js';
import { useReplayGateway } from '../../wire-replay/replay-gateway.js';

const replayGateway = useReplayGateway();
const explanation = 'This request was refused due to policy.';

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

  it('puts a whole reply’s refusal words in message.refusal, content null', async () => {
    const { gateway, upstream } = replayGateway();
    // Anthropic's non-streaming shape for a refusal (https://docs.anthropic.com/en/api/handling-stop-reasons):
    // the words the model got out, then the stop with its details, as in the streamed capture.
    const words = 'I can’t help with that.';
    const body = JSON.stringify({
      id: 'msg_01RefusalWhole',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      content: [{ type: 'text', text: words }],
      stop_reason: 'refusal',
      stop_sequence: null,
      stop_details: { type: 'refusal', category: 'cyber', explanation },
      usage: { input_tokens: 20, output_tokens: 9 },
    });
    const fixture: WireFixture = {
      server: 'anthropic',
      name: 'refusal-whole.json',
      protocol: 'anthropic-messages',
      delivery: 'whole',
      bytes: Buffer.from(body),
      text: body,
    };
    upstream.replay(fixture);
    const completion = await gateway.client().chat.completions.create({
      model: 'anthropic/claude-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: words });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
  });
});
