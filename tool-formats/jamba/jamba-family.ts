/** The jamba family (AI21 Jamba 1.5/1.6/1.7): one JSON list of calls inside `<tool_calls>…</tool_calls>`. */
// `<tool_calls>` is shared with Hunyuan-A13B, Apriel and MiniMax-M1 (`shared/tool-calls-list.ts`). The
// tool prompt describes the list the way the template writes earlier calls; its own tool section was not
// at hand, so the wording is ours. Results go back in <tool_response> blocks.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/jamba_tool_parser.py
import type { FamilySpec } from '../shared/family-spec.js';
import { renderToolCallsList, toolCallsClose, toolCallsEnvelope, toolCallsOpen } from '../shared/tool-calls-list.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'jamba';

export const jambaFamily: FamilySpec = {
  family,
  envelopes: [toolCallsEnvelope(family)],
  prompt: {
    introduction: '# Tools\n\nYou can call the following functions, declared in JSON:',
    renderToolList: renderFunctionLines,
    callInstructions: [
      `To call functions, reply with one list of JSON objects, one per call, each with the function name and its arguments, inside ${toolCallsOpen}${toolCallsClose} tags:`,
      `${toolCallsOpen}[{"name": <function-name>, "arguments": <args-json-object>}]${toolCallsClose}`,
      'Put all calls of the turn in the one list. When no function is needed, answer directly.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => renderToolCallsList([call]),
  renderCalls: renderToolCallsList,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
