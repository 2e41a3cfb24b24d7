/**
 * A Claude refusal on /v1/messages keeps what Anthropic sent: `stop_reason: "refusal"` and its `stop_details`
 * (category and explanation), on `message_delta` when streamed, on the message when whole
 * (https://platform.claude.com/docs/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals; the
 * streamed case replays Anthropic's own capture, test/fixtures/wire/anthropic/refusal-streamed.sse).
 */
import { describe, expect, it } from 'vitest';
import { claudeWholeRefusal } from '../../helpers/claude-refusal-fixture.js';
import { readWireFixture } from '../../helpers/replay-upstream.js';
import { useReplayGateway } from '../../wire-replay/replay-gateway.js';

const replayGateway = useReplayGateway();
const capture = readWireFixture('anthropic', 'refusal-streamed.sse');

/** The capture's own stop_details, read from its message_delta. */
const capturedDetails = (() => {
  const line = capture.text.split('\n').find((candidate) => candidate.includes('"message_delta"')) ?? '';
  return (JSON.parse(line.slice('data: '.length)) as { delta: { stop_details: unknown } }).delta.stop_details;
})();

async function postMessages(stream: boolean): Promise<string> {
  const response = await fetch(`${replayGateway().gateway.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'anthropic/claude-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content: 'x' }], stream }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe('a Claude refusal on Anthropic Messages', () => {
  it('streams stop_details beside stop_reason refusal on message_delta', async () => {
    expect(capturedDetails).toMatchObject({ type: 'refusal', category: 'cyber' });
    replayGateway().upstream.replay(capture);
    const text = await postMessages(true);
    const messageDelta = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; delta?: Record<string, unknown> })
      .find((event) => event.type === 'message_delta');
    expect(messageDelta?.delta).toMatchObject({ stop_reason: 'refusal', stop_details: capturedDetails });
  });

  it('keeps stop_details on a whole message', async () => {
    replayGateway().upstream.replay(claudeWholeRefusal('Here is', capturedDetails));
    expect(JSON.parse(await postMessages(false))).toMatchObject({
      content: [{ type: 'text', text: 'Here is' }],
      stop_reason: 'refusal',
      stop_details: capturedDetails,
    });
  });
});
