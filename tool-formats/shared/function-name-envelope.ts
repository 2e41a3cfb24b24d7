/** `<function name="NAME">{json}</function>`: a call llama.cpp's Hermes 2 Pro parser reads, for the families it serves. */
// llama.cpp parses every model whose template writes Hermes' `<tool_call>` (Hermes 2 Pro/3, Qwen2.5,
// Qwen2.5-Coder, Qwen3) with its Hermes 2 Pro parser, which reads this tag around JSON arguments too
// (common/chat.cpp, `common_chat_parse_hermes_2_pro`; tests/test-chat.cpp). MiniCPM5 owns the marker for
// `<param name=…>` bodies and every parser knows it that way; its own parsers (vLLM's minicpm5xml,
// llama.cpp's minicpm5) read only `<param>` children, so the JSON reading is scoped to the families
// llama.cpp reads as Hermes 2 Pro. `headerEnd`: JSON after the tag is scanned as JSON, so `</function>`
// in a string is text.
import { taggedEnvelope, type Envelope } from './envelope.js';
import { functionNameAttributeGrammar } from './function-tag-grammar.js';

export function functionNameEnvelope(family: string): Envelope {
  return {
    ...taggedEnvelope(family, ['<function name="', "<function name='"], '</function>', [functionNameAttributeGrammar], { headerEnd: '>' }),
    scope: 'family',
  };
}
