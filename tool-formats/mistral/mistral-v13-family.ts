/** The mistral-v13 family (Devstral Small 1.1 and 2, Devstral 2, Magistral 1.1+, Ministral 3, Mistral Large 3): `[TOOL_CALLS]NAME[ARGS]{…}`. */
// Tokenizer v13: the tool list before the first user message, no call ids.
// @see https://github.com/mistralai/mistral-common/blob/main/tests/data/chat_templates/v13.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/unsloth-mistral-Devstral-Small-2507.jinja
import { mistralTekkenFamily } from './mistral-tekken-family.js';

export const mistralV13Family = mistralTekkenFamily({
  family: 'mistral-v13',
  callForm: 'named',
  writesCallIds: false,
  toolListTurn: 'first',
});
