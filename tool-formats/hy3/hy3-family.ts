/** The hy3 family (Tencent Hy3 and Hy4): `<tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value></tool_call></tool_calls>`. */
// Read: the shared `<tool_calls>` envelope (Jamba's, Hunyuan-A13B's JSON lists) with Hy3's call blocks
// as another grammar, so one marker scans one way everywhere; `<think>` reasoning. Tokenizers may carry a
// `token_suffix` on every tag (Hy4): the section's open tag tells it (`hy4-suffixed-section.ts`); a
// suffixed `<think:…>` is not read as reasoning (no fixed marker to register).
// Written: the same section, one per turn; results as tagged blocks in a user turn. The wording follows
// the parser's documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/hy_v3_tool_parser.py
import { hermesPrompt } from '../shared/hermes-layout.js';
import type { ToolCallPart } from '../../src/core/index.js';
import { argumentKeyClose, argumentKeyOpen, argumentValueClose, argumentValueOpen } from '../shared/arg-pairs-grammar.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import { toolCallsClose, toolCallsOpen } from '../shared/tool-calls-list.js';
import { taggedResults } from '../shared/tool-result-text.js';
import { hy3CallClose, hy3CallGrammar, hy3CallOpen, hy3Separator } from './hy3-call-grammar.js';
import { suffixedSectionEnvelope } from './hy4-suffixed-section.js';

const family = 'hy3';

function renderHy3Call(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const pairs = rawArgumentEntries(call.arguments).map(
    ([key, value]) => `${argumentKeyOpen}${key}${argumentKeyClose}${argumentValueOpen}${value}${argumentValueClose}`,
  );
  return `${hy3CallOpen}${call.name}${hy3Separator}${pairs.join('')}${hy3CallClose}`;
}

export const hy3Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, toolCallsOpen, toolCallsClose, [hy3CallGrammar], {
      valueSpans: [{ open: argumentValueOpen, close: argumentValueClose }],
    }),
    // Hy4 (vLLM's hy_v4 parser) drops `<tool_sep>` and may suffix every tag: `<tool_calls:6124c78e>`.
    suffixedSectionEnvelope(family),
  ],
  prompt: {
    // The Qwen-style words many templates share, for the tool list (see the note at the top).
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'To call functions, write one tool-calls section holding one block per call:',
      `${toolCallsOpen}${hy3CallOpen}function_name${hy3Separator}${argumentKeyOpen}argument_name${argumentKeyClose}${argumentValueOpen}value${argumentValueClose}${hy3CallClose}${toolCallsClose}`,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Put several calls one after another inside the same section.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => toolCallsOpen + renderHy3Call(call) + toolCallsClose,
  renderCalls: (calls) => toolCallsOpen + calls.map(renderHy3Call).join('') + toolCallsClose,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
