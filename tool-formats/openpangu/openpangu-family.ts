/** The openpangu family (Huawei openPangu): a JSON call list in `<|tool_call_start|>…<|tool_call_end|>`, or `[unused11]…[unused12]`. */
// Read: one JSON list of `{"name", "arguments"}` (or `parameters`) objects per block; tokenizers without
// the named tokens use the reserved `[unused11]`/`[unused12]`, as vLLM's pangu and openpangu_v2 parsers
// pick them. LFM2 shares `<|tool_call_start|>` (pythonic, or JSON); this family reads JSON there first.
// Written: the same list, one block per turn; results as tagged blocks in a user turn. The wording
// follows the parsers' documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/openpangu_v2_tool_parser.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/pangu_tool_parser.py
import { hermesPrompt } from '../shared/hermes-layout.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { renderJsonCallList } from '../shared/json-call-text.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { pythonicCallGrammar } from '../shared/pythonic-call-grammar.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'openpangu';
const callStart = '<|tool_call_start|>';
const callEnd = '<|tool_call_end|>';

export const openPanguFamily: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, callStart, callEnd, [jsonCallGrammar, pythonicCallGrammar]),
    taggedEnvelope(family, '[unused11]', '[unused12]', [jsonCallGrammar]),
  ],
  prompt: {
    // The Qwen-style words many templates share, for the tool list (see the note at the top).
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      `To call functions, write one JSON list of calls between ${callStart} and ${callEnd}:`,
      `${callStart}[{"name": "function_name", "arguments": {"argument_name": "value"}}]${callEnd}`,
      'Put several calls in the same list. When no function is needed, answer directly.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => callStart + renderJsonCallList([call]) + callEnd,
  renderCalls: (calls) => callStart + renderJsonCallList(calls) + callEnd,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
