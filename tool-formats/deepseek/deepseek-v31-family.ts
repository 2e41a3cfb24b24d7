/** The deepseek-v31 family (DeepSeek V3.1, V3.1-Terminus): `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`. */
// DeepSeek V3.1 changed the call syntax of V3 (no `function` type, no JSON fence) and its template
// writes each tool output right after the calls, inside the assistant's turn, the answer following.
// So the history is written that way: calls in the V3.1 form and results in the turn that made them
// (`resultsInCallTurn`). Its template does not render tools at all: the model card's tool prompt goes in
// the system message, which is what the prompt here follows. The parser is the deepseek family's,
// which reads both forms.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V3.1#toolcall
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/deepseek-ai-DeepSeek-V3.1.jinja
import type { ToolCallPart } from '../../src/core/index.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { resultText } from '../shared/tool-result-text.js';
import { deepseekFamily, renderToolSection } from './deepseek-family.js';
import {
  toolCallBegin,
  toolCallEnd,
  toolCallsBegin,
  toolCallsEnd,
  toolOutputBegin,
  toolOutputEnd,
  toolSeparator,
} from '../shared/deepseek-tokens.js';

const family = 'deepseek-v31';

function renderV31Call(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return `${toolCallBegin}${call.name}${toolSeparator}${formatJson(argumentsForRendering(call.arguments))}${toolCallEnd}`;
}

export const deepseekV31Family: FamilySpec = {
  ...deepseekFamily,
  family,
  envelopes: deepseekFamily.envelopes.map((envelope) => ({ ...envelope, family })),
  prompt: {
    introduction: '## Tools\nYou have access to the following tools:',
    renderToolList: (tools) => tools.map(renderToolSection).join('\n\n'),
    callInstructions: [
      'IMPORTANT: ALWAYS adhere to this exact format for tool use:',
      `${toolCallsBegin}${toolCallBegin}tool_call_name${toolSeparator}tool_call_arguments${toolCallEnd}{{additional_tool_calls}}${toolCallsEnd}`,
      '',
      'Where:',
      '',
      '- `tool_call_name` must be an exact match to one of the available tools',
      "- `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema",
      '- For multiple tool calls, chain them directly without separators or spaces',
    ].join('\n'),
    resultInstructions: `Tool results follow your calls, each between ${toolOutputBegin} and ${toolOutputEnd}. When no tool is needed, answer directly.`,
  },
  renderCall: (call) => toolCallsBegin + renderV31Call(call) + toolCallsEnd,
  // The template chains a turn's calls with no separator.
  renderCalls: (calls) => toolCallsBegin + calls.map(renderV31Call).join('') + toolCallsEnd,
  renderResults: (results) => results.map((result) => toolOutputBegin + resultText(result) + toolOutputEnd).join(''),
  resultsInCallTurn: true,
};
