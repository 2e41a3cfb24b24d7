/** The qwen25-coder family (Qwen2.5-Coder): Hermes' prompt and `<tool_call>` blocks, and the `<tools>{…}</tools>` its models answer in. */
// Qwen2.5-Coder ships Qwen2.5's chat template (Hermes' words and `<tool_call>` JSON), but its models
// often wrap calls in `<tools>` instead: one object, a list, or one object per line, as vLLM's
// qwen2_5_coder parser reads them. `<tools>` is the tag Hermes-style prompts put the tool list in, so
// other families' models may write it as text: the envelope is family-scoped, read only by this
// family's parser. Everything written (prompt, history, results) is Hermes', as the template writes it.
// llama.cpp reads its replies with the Hermes 2 Pro parser (the template writes `<tool_call>`), which
// also takes `<function name="NAME">{json}</function>`; so does this family (function-name-envelope.ts).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/qwen2_5_coder_tool_parser.py
import { hermesPrompt, hermesResults, renderHermesCall } from '../shared/hermes-layout.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { functionNameEnvelope } from '../shared/function-name-envelope.js';
import { toolsTagGrammar } from './tools-tag-grammar.js';

const family = 'qwen25-coder';

export const qwen25CoderFamily: FamilySpec = {
  family,
  envelopes: [{ ...taggedEnvelope(family, '<tools>', '</tools>', [toolsTagGrammar]), scope: 'family' }, functionNameEnvelope(family)],
  prompt: hermesPrompt,
  renderCall: renderHermesCall,
  renderResults: hermesResults,
};
