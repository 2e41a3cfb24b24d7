/** The granite family (IBM Granite 3.x): `<|tool_call|>` followed by a JSON list of calls, to the end of the reply. */
// Granite 3.0 writes the `<|tool_call|>` token, 3.1+ may write the `<tool_call>` string instead (vLLM's
// granite parser strips either); neither closes, so the list runs to the end of the reply. Both markers
// are registered as Hermes registers them (same end markers and body scanning: a complete JSON list at
// the end of the reply is a call even without a closer), so every family reads them alike.
// Reasoning: Granite 3.2 writes `Here is my thought process:` … `Here is my response:` (quantised builds
// say `Here's`), Granite 3.3 `<think>…</think><response>…</response>`. The phrases are plain English that
// other models write in prose, so only this family's parser takes them (scope `family`), and the same goes
// for the `<response>` framing tags.
// Where vLLM's granite tests differ on purpose: they send no tools and still get calls; here only offered
// names become calls (the roster rule), and a lone object after the marker is read as a one-call list.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/granite_tool_parser.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/reasoning/granite_reasoning_parser.py
import { taggedEnvelope, type ReasoningTag } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { renderJsonCallList } from '../shared/json-call-text.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { toolAsFunction } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';
import { gluedJsonResidue } from '../shared/glued-json-residue.js';

const family = 'granite';
const toolCallToken = '<|tool_call|>';

/** Both spellings of Granite 3.2's reasoning phrases; a reply uses one of them throughout. */
const thoughtProcess: readonly ReasoningTag[] = ['Here is', "Here's"].map((lead) => ({
  open: `${lead} my thought process:`,
  close: `${lead} my response:`,
  scope: 'family' as const,
}));

export const graniteFamily: FamilySpec = {
  family,
  // Special in Granite 3's tokenizer; vLLM's granite parser needs it kept (skip_special_tokens off).
  specialTokens: [toolCallToken],
  framingTokens: ['<|end_of_text|>'],
  envelopes: [
    // As hermes registers it (some Qwen3 builds close it), so that one marker scans one way.
    taggedEnvelope(family, toolCallToken, ['</|tool_call|>', '</|tool_call|}'], [jsonCallGrammar]),
  ],
  reasoningTags: thoughtProcess,
  familyFramingTokens: ['<response>', '</response>'],
  strippedResidue: gluedJsonResidue(toolCallToken, '</|tool_call|>'),
  prompt: {
    // The Granite 3.1-3.3 template's system prompt when tools are given (after "You are Granite, developed by IBM.").
    introduction: [
      'You are a helpful AI assistant with access to the following tools.',
      `When a tool is required to answer the user's query, respond with ${toolCallToken} followed by a JSON list of tools used.`,
      'If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.',
    ].join(' '),
    // The template's available_tools turn: each tool as JSON indented by 4, a blank line between tools.
    renderToolList: (tools) => tools.map((tool) => JSON.stringify(toolAsFunction(tool), null, 4)).join('\n\n'),
    callInstructions: `The list holds one object per call, all calls of the turn in one list:\n${toolCallToken}[{"name": <function-name>, "arguments": <args-json-object>}]`,
    resultInstructions: 'Tool results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => toolCallToken + renderJsonCallList([call]),
  renderCalls: (calls) => toolCallToken + renderJsonCallList(calls),
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
