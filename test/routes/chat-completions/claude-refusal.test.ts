/**
 * A Claude refusal (`stop_reason: "refusal"`) on Chat Completions is where OpenAI puts a refusal: in
 * `message.refusal` (streamed as `delta.refusal`), not in `content`. The streamed case replays Anthropic's
 * own capture (test/fixtures/wire/anthropic/refusal-streamed.sse: an empty text block, then `stop_details`).
 */
import { describe, expect, it } from 'vitest';
import { claudeWholeRefusal } from '../../helpers/claude-refusal-fixture.js';
import { readWireFixture } from '../../helpers/replay-upstream.js';
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
    const words = 'I can’t help with that.';
    upstream.replay(claudeWholeRefusal(words, { type: 'refusal', category: 'cyber', explanation }));
    const completion = await gateway.client().chat.completions.create({
      model: 'anthropic/claude-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: words });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
  });
});
