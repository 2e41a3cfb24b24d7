/** The deepseek-v32 family (DeepSeek V3.2): DSML `<｜DSML｜invoke>` calls in a `function_calls` section. */
// Read: `<｜DSML｜function_calls>` sections (and V4's `<｜DSML｜tool_calls>`; V4 has its own family,
// deepseek-v4) of one or more invokes, each parameter a raw value converted by the tool's schema; a section whose end never came still yields its
// closed invokes; V3.2's `<think>` (llama.cpp's template opens it by default, vLLM's encoder only in thinking
// mode: model-families.json `opensInReasoning.byDefaultOnServer`).
// Written: what DeepSeek's own encoder (`encoding/encoding_dsv32.py` of deepseek-ai/DeepSeek-V3.2, the
// prompt the model was trained on) writes, byte for byte as its gold `test_output.txt` shows: the tool
// block after the system text, ending in a newline; a turn's calls after a blank line, then the
// end-of-sentence token; the results right after it, `\n\n<function_results>…</function_results>\n\n`, and
// `</think>` (the thinking this turn does not show) before the model's next text. The servers' copies
// disagree with it, and it wins: vLLM's and SGLang's `deepseek_v32_encoding.py` print the tool block
// without its blank lines; llama.cpp's `DeepSeek-V3.2.jinja` prints each tool with the
// `{"type": "function", "function": …}` wrapper, where the encoder prints the function alone.
// DeepSeek's other tokens stay with the deepseek family, whose V3 / V3.1 sections these models no longer write.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V3.2/blob/main/encoding/encoding_dsv32.py
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/DeepSeek-V3.2.jinja
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv32_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import {
  dsmlInvokeGrammar,
  functionCallsClose,
  functionCallsDialect,
  functionCallsOpen,
  invokeClose,
  invokeOpen,
  parameterClose,
  parameterOpen,
  toolCallsClose,
  toolCallsOpen,
} from '../shared/dsml-tokens.js';
import { placeAfterSystemText } from '../shared/after-system-text.js';
import { endOfSentence } from '../shared/deepseek-tokens.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { renderDsmlSection } from '../shared/render-dsml-invoke.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';

const family = 'deepseek-v32';
const thinkingOpen = '<think>';
const thinkingClose = '</think>';
/** A value may hold code with the section's end tag in it; only its own close ends it. */
const valueSpans = [{ open: parameterOpen, close: parameterClose }];

function renderSection(calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]): string {
  return renderDsmlSection(calls, functionCallsDialect);
}

export const deepseekV32Family: FamilySpec = {
  family,
  // No renderReasoningInText: the encoder (and DeepSeek-V3.2.jinja) writes the reasoning field and
  // `</think>` itself before a kept turn's content, reading nothing back out of it, so a block in the
  // text would follow a closed one; and in the text history only a last assistant turn is kept.
  envelopes: [
    taggedEnvelope(family, functionCallsOpen, functionCallsClose, [dsmlInvokeGrammar], { valueSpans }),
    taggedEnvelope(family, toolCallsOpen, toolCallsClose, [dsmlInvokeGrammar], { valueSpans }),
  ],
  framingTokens: [endOfSentence],
  prompt: {
    // The encoder's TOOLS_SYSTEM_TEMPLATE, in its words and blank lines.
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
      '',
      'If the thinking_mode is enabled, then after function results you should strongly consider outputting a thinking block. Here is an example:',
      '',
      functionCallsOpen,
      '...',
      functionCallsClose,
      '',
      '<function_results>',
      '...',
      '</function_results>',
      '',
      `${thinkingOpen}...thinking about results${thinkingClose}`,
    ].join('\n'),
    // `json.dumps(tool["function"])` per line; the template's text ends with a newline after the list.
    renderToolList: (tools) =>
      `Here are the functions available in JSONSchema format:\n<functions>\n${tools.map((tool) => formatJson(toolSignature(tool))).join('\n')}\n</functions>\n`,
    callInstructions: '',
  },
  placeToolPrompt: placeAfterSystemText,
  renderCall: (call) => renderSection([call]),
  // One section for the turn's calls, after a blank line even when the turn has no text.
  renderCalls: (calls) => `\n\n${renderSection(calls)}`,
  textBeforeCalls: '',
  renderResults: (results) =>
    `<function_results>\n${results.map((result) => `<result>${resultText(result)}</result>`).join('\n')}\n</function_results>`,
  resultsInCallTurn: true,
  callTurnEnd: `${endOfSentence}\n\n`,
  // The encoder writes `<think>` there only after the last user message, in thinking mode. Results join
  // the call turn only when an answer follows them, and the last results stay a user turn, so a joined
  // turn always comes before the last user message: `</think>` in either mode.
  callTurnResume: `\n\n${thinkingClose}`,
};
