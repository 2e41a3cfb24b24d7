/** The ernie family (Baidu ERNIE 4.5, ERNIE-4.5-Thinking): Hermes-style `<tool_call>` JSON blocks. */
// Read: `<tool_call>{"name", "arguments"}</tool_call>`, the body vLLM's ernie45 parser reads (the same
// start marker and body scanning as Hermes, so the two registrations merge); reasoning that ends with
// `</think>` (the thinking model's template opens it: set `startsInReasoning` for such a model).
// `<response>`/`</response>` around the thinking model's answer are special tokens that servers skip by
// default; they are not framing here, since a framing token is dropped from every family's text.
// Written: the Hermes layout; results as `<tool_response>` blocks.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/ernie45_tool_parser.py
// @see https://huggingface.co/baidu/ERNIE-4.5-21B-A3B-Thinking
import { hermesPrompt, hermesResults, renderHermesCall } from '../shared/hermes-layout.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';

const family = 'ernie';

export const ernieFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, '<tool_call>', '</tool_call>', [jsonCallGrammar])],
  bareGrammars: [jsonCallGrammar],
  prompt: hermesPrompt,
  renderCall: renderHermesCall,
  renderResults: hermesResults,
};
