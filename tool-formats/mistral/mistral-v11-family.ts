/** The mistral-v11 family (Mistral Small 3.2, Magistral Small 2506): calls as `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`. */
// Tokenizer v11: the tool list before the last user message, call ids in calls and results.
// @see https://github.com/mistralai/mistral-common/blob/main/tests/data/chat_templates/v11.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja
import { mistralTekkenFamily } from './mistral-tekken-family.js';

export const mistralV11Family = mistralTekkenFamily({
  family: 'mistral-v11',
  callForm: 'named',
  writesCallIds: true,
  toolListTurn: 'last',
});
