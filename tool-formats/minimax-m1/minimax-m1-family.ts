/** The minimax-m1 family (MiniMax-M1, MiniMax-Text-01): `<tool_calls>` holding one JSON call object per line. */
// `<tool_calls>` is registered as Jamba's list is (`shared/tool-calls-list.ts`): the JSON grammar reads
// values one after another, so one object per line is several calls; the family's own parser reads the
// lines one by one first (`minimax-call-lines-grammar.ts`), so that a bad line loses only itself. Calls inside `<think>` are not
// calls (vLLM's minimax parser removes them; here reasoning is never parsed). The prompt and the results
// (`tool name:` / `tool result:` lines) follow the MiniMax-M1 tool template.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/minimax_tool_parser.py
// @see https://github.com/vllm-project/vllm/blob/main/examples/tool_chat_template_minimax_m1.jinja
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { jsonCallObject } from '../shared/json-call-text.js';
import { toolCallsClose, toolCallsEnvelope, toolCallsOpen } from '../shared/tool-calls-list.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';
import { minimaxCallLinesGrammar } from './minimax-call-lines-grammar.js';

const family = 'minimax-m1';

function renderCallLines(calls: readonly Parameters<FamilySpec['renderCall']>[0][]): string {
  return `${toolCallsOpen}\n${calls.map((call) => formatJson(jsonCallObject(call))).join('\n')}\n${toolCallsClose}`;
}

export const minimaxM1Family: FamilySpec = {
  family,
  envelopes: [toolCallsEnvelope(family, [minimaxCallLinesGrammar])],
  prompt: {
    introduction: 'You are provided with these tools:',
    renderToolList: (tools) => `<tools>\n${tools.map((tool) => formatJson(toolSignature(tool))).join('\n')}\n</tools>`,
    callInstructions: [
      `If you need to call tools, please respond with ${toolCallsOpen}${toolCallsClose} XML tags, and provide tool-name and json-object of arguments, following the format below:`,
      toolCallsOpen,
      '{"name": <tool-name>, "arguments": <args-json-object>}',
      '...',
      toolCallsClose,
    ].join('\n'),
    resultInstructions: 'Tool results come back to you in the next user turn, each as a "tool name:" line and a "tool result:" line.',
  },
  renderCall: (call) => renderCallLines([call]),
  renderCalls: renderCallLines,
  renderResults: (results) =>
    results.map((result) => `tool name: ${result.toolName ?? ''}\ntool result: ${resultText(result)}`).join('\n\n'),
};
