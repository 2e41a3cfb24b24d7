/**
 * A whole (non-streaming) Claude reply that ends in a refusal, as a wire fixture the replay upstream serves:
 * the words the model got out, then `stop_reason: "refusal"` with its `stop_details`, in Anthropic's
 * non-streaming shape (https://docs.anthropic.com/en/api/handling-stop-reasons; the streamed capture is
 * test/fixtures/wire/anthropic/refusal-streamed.sse).
 */
import type { WireFixture } from './replay-upstream.js';

export function claudeWholeRefusal(words: string, stopDetails: unknown): WireFixture {
  const text = JSON.stringify({
    id: 'msg_01RefusalWhole',
    type: 'message',
    role: 'assistant',
    model: 'claude-opus-4-7',
    content: [{ type: 'text', text: words }],
    stop_reason: 'refusal',
    stop_sequence: null,
    stop_details: stopDetails,
    usage: { input_tokens: 20, output_tokens: 9 },
  });
  return {
    server: 'anthropic',
    name: 'refusal-whole.json',
    protocol: 'anthropic-messages',
    delivery: 'whole',
    bytes: Buffer.from(text),
    text,
  };
}
