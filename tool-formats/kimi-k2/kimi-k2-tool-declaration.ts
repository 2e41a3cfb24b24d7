/** Kimi K2's tool declaration: the `tool_declare` turn its templates write, closed and opened inside the system message. */
// Both Kimi K2 templates write the tools as a turn of their own, `<|im_system|>tool_declare<|im_middle|>`
// then `tools | tojson` then `<|im_end|>`, with no instructions, before the system turn. A chat request
// cannot send that turn (the openai-compatible provider folds system messages into the first), so the
// system message ends its own turn with `<|im_end|>` and opens the declaration, which the server's
// `<|im_end|>` then closes: the turn the model was trained on, after the system turn rather than before
// it. What the templates do not write (tool notes, examples, the tool-choice rule) goes after the system
// text, before the declaration. (Mistral's families write the template's `</s>` inside a message the same way.)
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/moonshotai-Kimi-K2-Thinking.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/moonshotai-Kimi-K2.jinja
import type { Message, ToolDefinition } from '../../src/core/index.js';
import { formatJson } from '../shared/format-json.js';
import { toolAsFunction } from '../shared/tool-prompt.js';

const declarationStart = '<|im_end|><|im_system|>tool_declare<|im_middle|>';

/** The declaration as the templates print `tools | tojson`, opened by ending the system turn. */
export function renderKimiToolDeclaration(tools: readonly ToolDefinition[]): string {
  return declarationStart + formatJson(tools.map(toolAsFunction));
}

/**
 * The prompt starts with the declaration (`renderKimiToolDeclaration`, one line of JSON); the family's other
 * sections follow it after a blank line. The declaration goes last in the system message, the sections
 * after the system text.
 */
export function placeKimiToolDeclaration(messages: Message[], prompt: string): { messages: Message[]; rest: string } {
  const split = prompt.indexOf('\n\n');
  const declaration = split === -1 ? prompt : prompt.slice(0, split);
  const sections = split === -1 ? '' : prompt.slice(split + 2);
  const system = messages.findIndex((message) => message.role === 'system');
  const text = system === -1 ? '' : (messages[system] as Extract<Message, { role: 'system' }>).content;
  const content = [text, sections].filter((part) => part !== '').join('\n\n') + declaration;
  if (system === -1) return { messages: [{ role: 'system', content }, ...messages], rest: '' };
  const placed = messages.slice();
  placed[system] = { role: 'system', content };
  return { messages: placed, rest: '' };
}
