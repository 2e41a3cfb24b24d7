/** The apriel family (ServiceNow Apriel 1.5/1.6 Thinker): reasoning, `[BEGIN FINAL RESPONSE]`, then text and `<tool_calls>[…]</tool_calls>`. */
// Apriel reasons first, untagged: the 1.6 template ends its generation prompt with `Here are my reasoning
// steps:\n`, 1.5 only asks for reasoning in the system prompt. `[BEGIN FINAL RESPONSE]` ends the
// reasoning and `[END FINAL RESPONSE]` may close the answer. The reasoning tag below is read when the
// model writes its opener itself, and is the one a reply starting inside reasoning is in
// (`startsInReasoning`); without either, the reasoning stays text and the markers are removed from it.
// All are family-scoped: other models write such phrases as prose. The tool prompt is the 1.6 template's.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/Apriel-1.6-15b-Thinker-fixed.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/unsloth-Apriel-1.5.jinja
import type { FamilySpec } from '../shared/family-spec.js';
import { renderToolCallsList, toolCallsClose, toolCallsEnvelope, toolCallsOpen } from '../shared/tool-calls-list.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'apriel';
const beginFinalResponse = '[BEGIN FINAL RESPONSE]';
const endFinalResponse = '[END FINAL RESPONSE]';

export const aprielFamily: FamilySpec = {
  family,
  envelopes: [toolCallsEnvelope(family)],
  reasoningTags: [{ open: 'Here are my reasoning steps:', close: beginFinalResponse, scope: 'family' }],
  familyFramingTokens: [beginFinalResponse, endFinalResponse],
  prompt: {
    introduction: [
      `You are provided with function signatures within <available_tools></available_tools> XML tags.`,
      'You may call one or more functions to assist with the user query.',
      "Don't make assumptions about the arguments. You should infer the argument values from previous user responses and the system message.",
      'Here are the available tools:',
    ].join('\n'),
    renderToolList: (tools) => `<available_tools>\n${renderFunctionLines(tools)}\n</available_tools>`,
    callInstructions: [
      `Return all function calls as a list of JSON objects within ${toolCallsOpen}${toolCallsClose} XML tags.`,
      'Each JSON object should contain a function name and arguments as follows:',
      `${toolCallsOpen}[{"name": <function-name-1>, "arguments": <args-dict-1>}, {"name": <function-name-2>, "arguments": <args-dict-2>},...]${toolCallsClose}`,
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => renderToolCallsList([call]),
  renderCalls: renderToolCallsList,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
