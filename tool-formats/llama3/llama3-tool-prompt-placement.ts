/** Where Llama 3.1's template puts the tool prompt: before the first user message, in that turn. */
// Meta's template (`tools_in_user_message`, true unless the caller says otherwise) writes "Given the
// following functions, …", each tool as `tojson(indent=4)` followed by a blank line, then the first
// user message, all in that user turn; the system turn keeps the system text. So the family's opening
// and tool list go at the start of the first user message, and what the template does not write (the
// family's call and result conventions, the tool-choice rule) goes after the system text.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja
import type { Message, UserMessage } from '../../src/core/index.js';

/**
 * `templatePartEnd`: the text that starts the family's own part of the prompt, which follows the tool
 * list after a blank line (its call instructions, always written).
 */
export function llamaToolPromptPlacement(
  templatePartEnd: string,
): (messages: Message[], prompt: string) => { messages: Message[]; rest: string } {
  return (messages, prompt) => placeToolPrompt(messages, prompt, `\n\n${templatePartEnd}`);
}

function placeToolPrompt(messages: Message[], prompt: string, templatePartEnd: string): { messages: Message[]; rest: string } {
  const question = messages.findIndex((message) => message.role === 'user');
  const split = prompt.indexOf(templatePartEnd);
  if (question === -1 || split === -1) return { messages, rest: prompt };
  const opening = `${prompt.slice(0, split)}\n\n`;
  const placed = messages.slice();
  const user = placed[question] as UserMessage;
  // Joined to the first text, so that a one-text turn still travels as one string.
  const [first, ...others] = user.content;
  placed[question] = {
    role: 'user',
    content:
      first?.type === 'text'
        ? [{ type: 'text', text: opening + first.text }, ...others]
        : [{ type: 'text', text: opening.trimEnd() }, ...user.content],
  };
  return { messages: placed, rest: prompt.slice(split + 2) };
}
