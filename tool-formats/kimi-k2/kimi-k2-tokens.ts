/** Kimi-K2's special tokens around tool calls. */
// @see https://huggingface.co/moonshotai/Kimi-K2-Instruct/blob/main/docs/tool_call_guidance.md

export const toolCallsSectionBegin = '<|tool_calls_section_begin|>';
export const toolCallsSectionEnd = '<|tool_calls_section_end|>';
export const toolCallBegin = '<|tool_call_begin|>';
export const toolCallArgumentBegin = '<|tool_call_argument_begin|>';
export const toolCallEnd = '<|tool_call_end|>';
