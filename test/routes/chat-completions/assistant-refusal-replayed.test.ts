/**
 * A Chat client sends the history back with its assistant turns as it got them: the openai SDK's message of a
 * declined request is `{"role": "assistant", "content": null, "refusal": "…"}` (ChatCompletionMessage;
 * https://platform.openai.com/docs/guides/structured-outputs#refusals). The words are the turn: an upstream
 * gets them as its text, as a `refusal` content part and a Responses `refusal` part already are.
 */
import { describe, expect, it } from 'vitest';
import { parseChatMessages } from '../../../routes/chat-completions/parse-chat-messages.js';

const words = "I'm sorry, I can't help with that.";

describe('an assistant turn that was a refusal, sent back in the history', () => {
  it("keeps the message's refusal as the turn's text", () => {
    const messages = parseChatMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, refusal: words },
      { role: 'user', content: 'again' },
    ] as never);
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: words }] });
  });

  it('keeps the content when both came (text streamed before a refusal stays content)', () => {
    const messages = parseChatMessages([{ role: 'assistant', content: 'Let me see.', refusal: words }] as never);
    expect(messages[0]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Let me see.' }] });
  });
});
