/**
 * An OpenAI refusal (the words in `refusal` instead of `content`, `finish_reason: "stop"`: OpenAI's own
 * capture in test/fixtures/wire/openai/refusal-streamed.sse, and its whole shape from
 * https://platform.openai.com/docs/guides/structured-outputs#refusals) reaching the other APIs: Chat clients
 * get it in `message.refusal` with content null; Anthropic Messages, which has no refusal member, gets the
 * words as the reply's text and `stop_reason: "refusal"`, as Claude ends a declined request.
 */
import { describe, expect, it } from 'vitest';
import { readWireFixture, type WireFixture } from '../helpers/replay-upstream.js';
import { captureContents } from '../wire-replay/capture-contents.js';
import { useReplayGateway } from '../wire-replay/replay-gateway.js';

const replayGateway = useReplayGateway();
const capture = readWireFixture('openai', 'refusal-streamed.sse');
const words = captureContents(capture).refusal;
const model = 'openai/gpt-4o-2024-08-06';

function wholeRefusal(): WireFixture {
  const text = JSON.stringify({
    id: 'chatcmpl-refusal',
    object: 'chat.completion',
    created: 1727346172,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: words }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 79, completion_tokens: 11, total_tokens: 90 },
  });
  return { server: 'openai', name: 'refusal-whole.json', protocol: 'openai-chat', delivery: 'whole', bytes: Buffer.from(text), text };
}

async function postMessages(stream: boolean): Promise<{ status: number; text: string }> {
  const response = await fetch(`${replayGateway().gateway.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'x' }], stream }),
  });
  return { status: response.status, text: await response.text() };
}

function sseEvents(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

describe('an OpenAI refusal on Anthropic Messages', () => {
  it('streams the words as a text block and ends with stop_reason refusal', async () => {
    expect(words).not.toBe('');
    replayGateway().upstream.replay(capture);
    const { status, text } = await postMessages(true);
    expect(status).toBe(200);
    const events = sseEvents(text);
    const streamed = events
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => (event.delta as { text?: string }).text ?? '')
      .join('');
    expect(streamed).toBe(words);
    expect(events.find((event) => event.type === 'content_block_start')).toMatchObject({ index: 0, content_block: { type: 'text' } });
    expect(events.find((event) => event.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'refusal' } });
  });

  it('returns a whole reply’s words as its text, stop_reason refusal', async () => {
    replayGateway().upstream.replay(wholeRefusal());
    const { status, text } = await postMessages(false);
    expect(status).toBe(200);
    // The words are the text: no explanation beside them, and OpenAI names no category.
    expect(JSON.parse(text)).toMatchObject({
      content: [{ type: 'text', text: words }],
      stop_reason: 'refusal',
      stop_details: { type: 'refusal', category: null, explanation: null },
    });
  });
});

describe('an OpenAI refusal on Chat Completions', () => {
  it('keeps a whole reply’s words in message.refusal with content null, finish_reason stop', async () => {
    replayGateway().upstream.replay(wholeRefusal());
    const completion = await replayGateway()
      .gateway.client()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: words });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });
});
