/** The deepseek-v4 family (DeepSeek V4): V3.2's DSML invokes in a `<｜DSML｜tool_calls>` section, results as `<tool_result>`. */
// Written: what DeepSeek's own encoder (`encoding/encoding_dsv4.py` of deepseek-ai/DeepSeek-V4-Flash and
// -Pro, the prompt the model was trained on) writes, byte for byte as its gold `tests/test_output_1.txt`
// shows. It is not V3.2's: the tool block (`TOOLS_TEMPLATE`) has other words, a "### Available Tool Schemas"
// section and a closing rule, and ends in a newline; a turn's calls follow a blank line in a `tool_calls`
// section (V3.2: `function_calls`); V4 has no tool role: `merge_tool_messages` turns results into a user
// turn of `<tool_result>…</tool_result>` blocks joined by a blank line (V3.2 joins them to the call turn).
// Read: the `tool_calls` section of one or more invokes, each parameter a raw value converted by the
// tool's schema (vLLM's `deepseekv4_tool_parser.py` is V3.2's parser with these markers); a V3.2
// `function_calls` section is read too, and V4.1's `<｜DSML｜ calls>` with its spaced tags.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash/blob/main/encoding/encoding_dsv4.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv4_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import {
  dsmlInvokeGrammar,
  functionCallsClose,
  functionCallsOpen,
  invokeClose,
  invokeOpen,
  parameterClose,
  parameterOpen,
  spacedCallsClose,
  spacedCallsOpen,
  spacedDsmlInvokeGrammar,
  spacedParameterClose,
  spacedParameterOpen,
  toolCallsClose,
  toolCallsOpen,
} from '../shared/dsml-tokens.js';
import { endOfSentence } from '../shared/deepseek-tokens.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { renderDsmlInvoke } from '../shared/render-dsml-invoke.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';

const family = 'deepseek-v4';
const thinkingOpen = '<think>';
const thinkingClose = '</think>';
/** A value may hold code with the section's end tag in it; only its own close ends it. */
const valueSpans = [{ open: parameterOpen, close: parameterClose }];

function renderSection(calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]): string {
  return `${toolCallsOpen}\n${calls.map(renderDsmlInvoke).join('\n')}\n${toolCallsClose}`;
}

export const deepseekV4Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, toolCallsOpen, toolCallsClose, [dsmlInvokeGrammar], { valueSpans }),
    taggedEnvelope(family, functionCallsOpen, functionCallsClose, [dsmlInvokeGrammar], { valueSpans }),
    // V4.1's spaced tags: its names come here too ("deepseek-v4" in "deepseek-v4.1"); its own prompt is not written yet.
    taggedEnvelope(family, spacedCallsOpen, spacedCallsClose, [spacedDsmlInvokeGrammar], {
      valueSpans: [{ open: spacedParameterOpen, close: spacedParameterClose }],
    }),
  ],
  framingTokens: [endOfSentence],
  // None of the DSML markers is a special token: vLLM's DeepSeek V3.2 parser (which V4's inherits) says
  // so where it turns skip_special_tokens off anyway, and the servers read the markers as text.
  // @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv32_tool_parser.py (adjust_request)
  specialTokens: [],
  prompt: {
    // The encoder's TOOLS_TEMPLATE up to the schemas, in its words and blank lines.
    introduction: [
      '## Tools',
      '',
      `You have access to a set of tools to help answer the user's question. You can invoke tools by writing a "${toolCallsOpen}" block like the following:`,
      '',
      toolCallsOpen,
      `${invokeOpen} name="$TOOL_NAME">`,
      `${parameterOpen} name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE${parameterClose}`,
      '...',
      invokeClose,
      `${invokeOpen} name="$TOOL_NAME2">`,
      '...',
      invokeClose,
      toolCallsClose,
      '',
      'String parameters should be specified as is and set `string="true"`. For all other types (numbers, booleans, arrays, objects), pass the value in JSON format and set `string="false"`.',
      '',
      `If thinking_mode is enabled (triggered by ${thinkingOpen}), you MUST output your complete reasoning inside ${thinkingOpen}...${thinkingClose} BEFORE any tool calls or final response.`,
      '',
      `Otherwise, output directly after ${thinkingClose} with tool calls or final response.`,
    ].join('\n'),
    // `json.dumps(tool["function"])` per line (`render_tools`).
    renderToolList: (tools) => `### Available Tool Schemas\n\n${tools.map((tool) => formatJson(toolSignature(tool))).join('\n')}`,
    // The template's last line, and the newline it ends with.
    callInstructions: 'You MUST strictly follow the above defined tool name and parameter schemas to invoke tool calls.\n',
  },
  renderCall: (call) => renderSection([call]),
  // One section for the turn's calls, after a blank line even when the turn has no text.
  renderCalls: (calls) => `\n\n${renderSection(calls)}`,
  textBeforeCalls: '',
  // `merge_tool_messages`: one user turn, a `<tool_result>` block per result, a blank line between them
  // (and before the user's next text, which the server's encoder merges into the same turn).
  renderResults: (results) => results.map((result) => `<tool_result>${resultText(result)}</tool_result>`).join('\n\n'),
};
