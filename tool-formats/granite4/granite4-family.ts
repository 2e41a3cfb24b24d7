/** The granite4 family (IBM Granite 4.0/4.1): Hermes' `<tool_call>{…}</tool_call>` blocks, prompted in Granite 4's words. */
// The syntax is Hermes' (one JSON object per block, results in <tool_response> blocks); what differs is
// the system prompt, which follows the Granite 4.0 chat template's tool section.
// @see https://www.ibm.com/granite/docs/use-cases/prompt-engineering
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/granite4_tool_parser.py
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { jsonCallObject } from '../shared/json-call-text.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'granite4';

export const granite4Family: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, '<tool_call>', '</tool_call>', [jsonCallGrammar])],
  prompt: {
    introduction:
      'You are a helpful assistant with access to the following tools. You may call one or more tools to assist with the user query.',
    renderToolList: (tools) =>
      `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${renderFunctionLines(tools)}\n</tools>`,
    callInstructions: [
      'For each tool call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
      '<tool_call>',
      '{"name": <function-name>, "arguments": <args-json-object>}',
      '</tool_call>. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.',
    ].join('\n'),
    resultInstructions:
      'Tool results come back to you in the next user turn, each inside <tool_response></tool_response> XML tags. When no tool is needed, answer directly.',
  },
  renderCall: (call) => `<tool_call>\n${formatJson(jsonCallObject(call))}\n</tool_call>`,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
