/** Where Mistral's templates put the tool prompt: the tool list before a user turn, the instructions before the system text. */
// The templates write `[AVAILABLE_TOOLS]…[/AVAILABLE_TOOLS]` just before the `[INST]` of one user
// message: the last one (v0.3's and Small 3.1's templates, and mistral-common's up to tokenizer v11), or
// the first one (tokenizer v13, `UserMessagePosition.first`). The older templates also put tool
// instructions first in `[SYSTEM_PROMPT]`, then a blank line and the system text. Through a chat API the
// list can only go inside that user turn, at its start; so it goes there, and any instructions go before
// the system text. In an agent's loop, where results end the conversation in a user turn, the last user
// turn is the question before them, as in the template.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja
// @see https://github.com/mistralai/mistral-common/blob/main/src/mistral_common/tokens/tokenizers/instruct.py (encode_user_message)
import type { Message, UserMessage } from '../../src/core/index.js';

/** Which user turn the template writes the tool list before. */
export type ToolListTurn = 'first' | 'last';

/**
 * The family's prompt begins with the list, which is JSON on one line (`formatJson` escapes newlines
 * in strings), so the list ends at the first blank line.
 */
export function mistralToolPromptPlacement(
  turn: ToolListTurn,
): (messages: Message[], prompt: string) => { messages: Message[]; rest: string } {
  return (messages, prompt) => placeToolPrompt(messages, prompt, turn);
}

function placeToolPrompt(messages: Message[], prompt: string, turn: ToolListTurn): { messages: Message[]; rest: string } {
  const isQuestion = (message: Message) => message.role === 'user' && !isResultsTurn(message);
  const userTurn = turn === 'first' ? messages.findIndex(isQuestion) : messages.findLastIndex(isQuestion);
  if (userTurn === -1) return { messages, rest: prompt };
  const split = prompt.indexOf('\n\n');
  const list = split === -1 ? prompt : prompt.slice(0, split);
  const instructions = split === -1 ? '' : prompt.slice(split + 2);
  const placed = messages.slice();
  const user = placed[userTurn] as UserMessage;
  // Joined to the first text, so that a one-text turn still travels as one string.
  const [first, ...others] = user.content;
  placed[userTurn] = {
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
 * template's user messages are the questions, so the list goes before one of them.
 */
function isResultsTurn(message: UserMessage): boolean {
  const first = message.content[0];
  return first?.type === 'text' && first.text.startsWith('[TOOL_RESULTS]');
}
