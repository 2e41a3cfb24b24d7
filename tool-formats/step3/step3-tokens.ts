/** StepFun Step3's special tokens around tool calls (full-width `｜` U+FF5C; unlike DeepSeek's, no `▁`). */
// Byte-exact copies of the tokenizer's special tokens: a look-alike ASCII bar would never match.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/step3_tool_parser.py

export const toolCallsBegin = '<｜tool_calls_begin｜>';
export const toolCallsEnd = '<｜tool_calls_end｜>';
export const toolCallBegin = '<｜tool_call_begin｜>';
export const toolCallEnd = '<｜tool_call_end｜>';
export const toolSeparator = '<｜tool_sep｜>';
export const invokeOpen = '<steptml:invoke name="';
export const invokeClose = '</steptml:invoke>';
export const parameterOpen = '<steptml:parameter name="';
export const parameterClose = '</steptml:parameter>';
