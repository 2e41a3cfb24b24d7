/** The mistral-v7 family (Mistral Small 3.1, Devstral Small 2505): JSON-array calls, results as `[TOOL_RESULTS]ID[TOOL_CONTENT]…`. */
// Tokenizer v7 keeps v3's call array (`[TOOL_CALLS][{"name", "arguments", "id"}]`) but writes a result as
// its call id, `[TOOL_CONTENT]` and the output as it came, not v3's `{"content", "call_id"}` JSON; the tool
// list goes before the last user message. The template the models' Hugging Face repositories publish
// (llama.cpp's copy below) still prints v3's result JSON; the models were trained on the tokenizer's form,
// which vLLM's `--tokenizer-mode mistral` (the way their cards serve them) sends.
// @see https://github.com/mistralai/mistral-common/blob/main/src/mistral_common/tokens/tokenizers/instruct.py (InstructTokenizerV7.encode_tool_message)
// @see https://github.com/mistralai/mistral-common/blob/main/tests/data/chat_templates/v7.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja
import { mistralTekkenFamily } from './mistral-tekken-family.js';

export const mistralV7Family = mistralTekkenFamily({
  family: 'mistral-v7',
  callForm: 'json-array',
  writesCallIds: true,
  toolListTurn: 'last',
});
