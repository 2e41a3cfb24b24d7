/** Where Mistral's template puts the tool prompt: the tool list before the last user turn, the instructions before the system text. */
// The template writes `[AVAILABLE_TOOLS] […][/AVAILABLE_TOOLS]` just before the `[INST]` of the last
// user message, and its tool instructions first in `[SYSTEM_PROMPT]`, then a blank line and the system
// text. Through a chat API the list can only go inside that user turn, at its start; so it goes there,
// and the instructions go before the system text. In an agent's loop, where results end the conversation
// in a user turn, that is the question before them, as in the template.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja
import type { Message, UserMessage } from '../../src/core/index.js';

/**
 * The family's prompt begins with the list, which is JSON on one line (`formatJson` escapes newlines
 * in strings), so the list ends at the first blank line.
 */
export function placeMistralToolPrompt(messages: Message[], prompt: string): { messages: Message[]; rest: string } {
  const lastUser = messages.findLastIndex((message) => message.role === 'user' && !isResultsTurn(message));
  if (lastUser === -1) return { messages, rest: prompt };
  const split = prompt.indexOf('\n\n');
  const list = split === -1 ? prompt : prompt.slice(0, split);
  const instructions = split === -1 ? '' : prompt.slice(split + 2);
  const placed = messages.slice();
  const user = placed[lastUser] as UserMessage;
  // Joined to the first text, so that a one-text turn still travels as one string.
  const [first, ...others] = user.content;
  placed[lastUser] = {
    role: 'user',
    content:
      first?.type === 'text' ? [{ type: 'text', text: list + first.text }, ...others] : [{ type: 'text', text: list }, ...user.content],
  };
  if (instructions === '') return { messages: placed, rest: '' };
  const system = placed.findIndex((message) => message.role === 'system');
  if (system === -1) return { messages: [{ role: 'system', content: instructions }, ...placed], rest: '' };
  const text = (placed[system] as Extract<Message, { role: 'system' }>).content;
  placed[system] = { role: 'system', content: text === '' ? instructions : `${instructions}\n\n${text}` };
  return { messages: placed, rest: '' };
}

/**
 * Results that end the conversation are a user turn of `[TOOL_RESULTS]` (see `resultsInCallTurn`); the
 * template's last user message is the question before them, so the list goes there.
 */
function isResultsTurn(message: UserMessage): boolean {
  const first = message.content[0];
  return first?.type === 'text' && first.text.startsWith('[TOOL_RESULTS]');
}
