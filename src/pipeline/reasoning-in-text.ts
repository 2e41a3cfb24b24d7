/**
 * The prompted lane's history for a server that takes no reasoning field (LM Studio, an unknown
 * OpenAI-compatible server, reasoning-field.ts): the reasoning the model's template keeps would be lost
 * in the adapter, so it is written into those turns' text as the template renders it
 * (ToolFormat.renderReasoningInText). The other turns' reasoning is left for the adapter, which sends
 * such a server none of it.
 */
import type { AssistantMessage, Message, TextPart } from '../core/message.js';
import type { ToolFormat } from '../core/tool-format.js';

/**
 * `history` with the reasoning of the assistant turns after index `after` written into their text;
 * the same array when none of them has reasoning (most requests), so nothing is copied for them.
 */
export function withReasoningInText(
  history: Message[],
  render: NonNullable<ToolFormat['renderReasoningInText']>,
  after: number,
): Message[] {
  for (let index = after + 1; index < history.length; index++) {
    if (hasReasoning(history[index]!))
      return history.map((message, at) => (at > after && hasReasoning(message) ? inText(message, render) : message));
  }
  return history;
}

function hasReasoning(message: Message): message is AssistantMessage {
  return message.role === 'assistant' && message.content.some((part) => part.type === 'reasoning');
}

/** One text part where the reasoning and text parts were (calls were already written into the text); any other part kept after it. */
function inText(message: AssistantMessage, render: NonNullable<ToolFormat['renderReasoningInText']>): AssistantMessage {
  let reasoning = '';
  let text = '';
  const others: AssistantMessage['content'] = [];
  for (const part of message.content) {
    if (part.type === 'reasoning') reasoning += part.text;
    else if (part.type === 'text') text += part.text;
    else others.push(part);
  }
  const written: TextPart = { type: 'text', text: render(reasoning, text) };
  return { role: 'assistant', content: [written, ...others] };
}
