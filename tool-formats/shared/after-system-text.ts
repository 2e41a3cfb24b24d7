/** The tool prompt after the system text and a blank line, even when there is no system text (DeepSeek V3.2, V4). */
// DeepSeek's encoders write a system message as `{content}` and its tools as `"\n\n" + render_tools(tools)`
// after it (`render_message`, role "system"; encoding_dsv32.py and encoding_dsv4.py), so a conversation
// without system text still opens with the blank line: vLLM's deepseek_v32 and deepseek_v4 tokenizers put the
// request's tools on an inserted `{"role": "system"}` then, whose content is None, written as "".
// The usual placement (insert-tool-prompt.ts) writes the prompt alone in that case.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v32_encoding.py (render_message)
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v4.py (apply_chat_template)
import type { Message } from '../../src/core/index.js';

export function placeAfterSystemText(messages: Message[], prompt: string): { messages: Message[]; rest: string } {
  const index = messages.findIndex((message) => message.role === 'system');
  const system = index === -1 ? undefined : messages[index];
  if (system?.role === 'system' && system.content !== '') return { messages, rest: prompt };
  const withPrompt: Message = { role: 'system', content: `\n\n${prompt}` };
  if (index === -1) return { messages: [withPrompt, ...messages], rest: '' };
  const placed = messages.slice();
  placed[index] = withPrompt;
  return { messages: placed, rest: '' };
}
