/** The internlm family (InternLM2, InternLM2.5, InternLM3 chat): `<|action_start|><|plugin|>{…}<|action_end|>` calls. */
// The model may say something first, then opens a plugin action and writes one JSON object,
// `{"name": …, "parameters": {…}}` (`arguments` is read too). `<|action_start|><|interpreter|>` is its
// code interpreter, which is not a tool call and stays text. Tools are the JSON list of the template's
// `system name=<|plugin|>` turn; results come back as the environment turn's JSON.
// @see https://github.com/InternLM/InternLM/blob/main/chat/chat_format.md
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/internlm2_tool_parser.py
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { jsonCallObject } from '../shared/json-call-text.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';
import { gluedJsonResidue } from '../shared/glued-json-residue.js';

const family = 'internlm';
const actionStart = '<|action_start|><|plugin|>';
const actionEnd = '<|action_end|>';

export const internlmFamily: FamilySpec = {
  family,
  // Special in InternLM2's tokenizer; vLLM's internlm2 parser turns skip_special_tokens off for them (adjust_request).
  specialTokens: ['<|action_start|>', '<|plugin|>', '<|interpreter|>', '<|action_end|>'],
  framingTokens: ['<|im_end|>'],
  envelopes: [taggedEnvelope(family, actionStart, actionEnd, [jsonCallGrammar])],
  strippedResidue: gluedJsonResidue(actionStart, actionEnd),
  prompt: {
    introduction: 'You can use the following plugins (tools), declared in JSON:',
    renderToolList: (tools) => formatJson(tools.map(toolSignature)),
    callInstructions: [
      `To call a plugin, you may say something first, then write ${actionStart}, one JSON object with the plugin name and its parameters, and ${actionEnd}:`,
      `${actionStart}\n{"name": "plugin_name", "parameters": {"argument": "value"}}${actionEnd}`,
      'Write one such action per call. When no plugin is needed, answer directly.',
    ].join('\n'),
    resultInstructions: 'Plugin results come back to you in the next user turn as JSON objects: {"name": plugin name, "output": result}.',
  },
  renderCall: (call) => `${actionStart}\n${formatJson(jsonCallObject(call, 'parameters'))}${actionEnd}`,
  renderResults: jsonResultLines,
};
