/** The step3 family (StepFun Step3): `<｜tool_calls_begin｜>` sections of `<steptml:invoke>` calls. */
// Read: one section holding one or more `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="N">
// <steptml:parameter name="K">V</steptml:parameter>…</steptml:invoke><｜tool_call_end｜>` blocks, or such a
// block without its section; values typed with the tool's schema; `<think>` reasoning. A section
// whose end never came still yields its complete calls. Step-3.5 writes Qwen3-Coder's syntax instead.
// Written: the same blocks, one section per turn; results as tagged blocks in a user turn.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/step3_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';
import { parameterValues, steptmlCallGrammar } from './steptml-call-grammar.js';
import {
  invokeClose,
  invokeOpen,
  parameterClose,
  parameterOpen,
  toolCallBegin,
  toolCallEnd,
  toolCallsBegin,
  toolCallsEnd,
  toolSeparator,
} from './step3-tokens.js';

const family = 'step3';

/** One call block: strings as they are, other values as JSON, one parameter per line. */
function renderStep3Call(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const parameters = rawArgumentEntries(call.arguments).map(([key, value]) => `${parameterOpen}${key}">${value}${parameterClose}\n`);
  return `${toolCallBegin}function${toolSeparator}${invokeOpen}${call.name}">\n${parameters.join('')}${invokeClose}${toolCallEnd}`;
}

export const step3Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, toolCallsBegin, toolCallsEnd, [steptmlCallGrammar], { valueSpans: parameterValues }),
    // A call without its section; the section end that may follow it is a framing token.
    taggedEnvelope(family, toolCallBegin, toolCallEnd, [steptmlCallGrammar], { valueSpans: parameterValues }),
  ],
  framingTokens: [toolCallsEnd],
  prompt: {
    introduction: '# Tools\n\nYou may call one or more functions to assist with the user query. The functions are declared in JSON:',
    renderToolList: (tools) => `<tools>\n${renderFunctionLines(tools)}\n</tools>`,
    callInstructions: [
      'To call functions, write one tool-call section holding one block per call:',
      `${toolCallsBegin}${toolCallBegin}function${toolSeparator}${invokeOpen}function_name">`,
      `${parameterOpen}parameter_name">value${parameterClose}`,
      `${invokeClose}${toolCallEnd}${toolCallsEnd}`,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Put several calls one after another inside the same section. When no function is needed, answer directly.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => toolCallsBegin + renderStep3Call(call) + toolCallsEnd,
  renderCalls: (calls) => toolCallsBegin + calls.map(renderStep3Call).join('') + toolCallsEnd,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
