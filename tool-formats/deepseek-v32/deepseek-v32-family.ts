/** The deepseek-v32 family (DeepSeek V3.2, V4): DSML `<｜DSML｜invoke>` calls in a `function_calls` section. */
// Read: `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>` (V4) sections of one or more invokes, each
// parameter a raw value converted by the tool's schema; a section whose end never came still yields its
// closed invokes; V3.2's `<think>` (llama.cpp's template opens it by default, vLLM's encoder only in thinking
// mode: model-families.json `opensInReasoning.byDefaultOnServer`).
// Written: the V3.2 template's tool block, calls and `<function_results>`; DeepSeek's other tokens stay
// with the deepseek family, whose V3 / V3.1 sections these models no longer write.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/DeepSeek-V3.2.jinja
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv4_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { endOfSentence } from '../shared/deepseek-tokens.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers, formatJson } from '../shared/format-json.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';
import {
  dsmlInvokeGrammar,
  functionCallsClose,
  functionCallsOpen,
  invokeClose,
  invokeOpen,
  parameterClose,
  parameterOpen,
  toolCallsClose,
  toolCallsOpen,
} from './dsml-tokens.js';

const family = 'deepseek-v32';
/** A value may hold code with the section's end tag in it; only its own close ends it. */
const valueSpans = [{ open: parameterOpen, close: parameterClose }];

/** One invoke, as the template's `encode_arguments_to_dsml` writes it: strings as they are, other values as JSON. */
function renderInvoke(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const entries = Object.entries(argumentsAsMembers(call.arguments));
  const parameters = entries.map(([key, member]) =>
    typeof member === 'string'
      ? `${parameterOpen} name="${key}" string="true">${member}${parameterClose}`
      : `${parameterOpen} name="${key}" string="false">${formatJson(member)}${parameterClose}`,
  );
  return `${invokeOpen} name="${call.name}">\n${parameters.join('\n')}\n${invokeClose}`;
}

function renderSection(calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]): string {
  return `${functionCallsOpen}\n${calls.map(renderInvoke).join('\n')}\n${functionCallsClose}`;
}

export const deepseekV32Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, functionCallsOpen, functionCallsClose, [dsmlInvokeGrammar], { valueSpans }),
    taggedEnvelope(family, toolCallsOpen, toolCallsClose, [dsmlInvokeGrammar], { valueSpans }),
  ],
  framingTokens: [endOfSentence],
  prompt: {
    introduction: [
      '## Tools',
      '',
      "You have access to a set of tools you can use to answer the user's question.",
      `You can invoke functions by writing a "${functionCallsOpen}" block like the following as part of your reply to the user:`,
      functionCallsOpen,
      `${invokeOpen} name="$FUNCTION_NAME">`,
      `${parameterOpen} name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE${parameterClose}`,
      '...',
      invokeClose,
      `${invokeOpen} name="$FUNCTION_NAME2">`,
      '...',
      invokeClose,
      functionCallsClose,
      '',
      'String and scalar parameters should be specified as is without any escaping or quotes, while lists and objects should use JSON format. The "string" attribute should be set to "true" for string type parameters and "false" for other types (numbers, booleans, arrays, objects).',
    ].join('\n'),
    renderToolList: (tools) =>
      `Here are the functions available in JSONSchema format:\n<functions>\n${tools.map((tool) => formatJson(toolSignature(tool))).join('\n')}\n</functions>`,
    callInstructions: '',
    resultInstructions:
      'Function results come back to you in the next user turn, inside <function_results></function_results>, each result in <result></result>. When no function is needed, answer directly.',
  },
  renderCall: (call) => renderSection([call]),
  // One section for the turn's calls, as the template writes them.
  renderCalls: renderSection,
  renderResults: (results) =>
    `<function_results>\n${results.map((result) => `<result>${resultText(result)}</result>`).join('\n')}\n</function_results>`,
};
