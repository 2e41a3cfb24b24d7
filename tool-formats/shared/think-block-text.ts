/**
 * An earlier turn's reasoning written into its text as a `<think>` block, the way the chat templates of
 * the families that keep it render it (ToolFormat.renderReasoningInText). The templates that read such a
 * block back out of the content (Qwen3's, GLM-4.5's, MiniMax-M2's split it at `</think>` when the message
 * has no reasoning field) then render the turn exactly as they render the field; those that do not show it
 * as written, which is the same text.
 */

/** Python's `strip('\n')`, which the templates apply to the reasoning. */
export function withoutEdgeNewlines(text: string): string {
  return text.replace(/^\n+|\n+$/g, '');
}

/**
 * Qwen3's template (the tokenizer package's `chat_template`): `'<think>\n' + reasoning_content.strip('\n') +
 * '\n</think>\n\n' + content.lstrip('\n')`.
 */
export function qwen3ThinkBlock(reasoning: string, text: string): string {
  return `<think>\n${withoutEdgeNewlines(reasoning)}\n</think>\n\n${text.replace(/^\n+/, '')}`;
}
