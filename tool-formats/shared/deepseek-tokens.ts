/** DeepSeek's special tokens around tool calls and tool outputs (full-width `｜` U+FF5C, `▁` U+2581). */
// Byte-exact copies of the tokenizer's special tokens: a look-alike ASCII bar would never match.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/tokenizer_config.json

export const toolCallsBegin = '<｜tool▁calls▁begin｜>';
export const toolCallsEnd = '<｜tool▁calls▁end｜>';
export const toolCallBegin = '<｜tool▁call▁begin｜>';
export const toolCallEnd = '<｜tool▁call▁end｜>';
export const toolSeparator = '<｜tool▁sep｜>';
export const toolOutputsBegin = '<｜tool▁outputs▁begin｜>';
export const toolOutputsEnd = '<｜tool▁outputs▁end｜>';
export const toolOutputBegin = '<｜tool▁output▁begin｜>';
export const toolOutputEnd = '<｜tool▁output▁end｜>';
export const endOfSentence = '<｜end▁of▁sentence｜>';
