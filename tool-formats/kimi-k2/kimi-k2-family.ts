/** The kimi-k2 family (Kimi K2 Instruct and Thinking): calls in a `<|tool_calls_section_begin|>` section. */
// Read: one section of `<|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>`
// blocks, or such blocks without the section; the header is the call's id. K2 Thinking may open the
// section (or a call) before `</think>`, which then ends the reasoning, as vLLM's reasoning parser does.
// Written: the same blocks with ids numbered over the conversation, the tools in the template's
// `tool_declare` turn, and results as the template's `## Return of ID` messages, one per turn.
// @see https://huggingface.co/moonshotai/Kimi-K2-Instruct/blob/main/docs/tool_call_guidance.md
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/moonshotai-Kimi-K2-Thinking.jinja
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { resultText } from '../shared/tool-result-text.js';
import { kimiCallGrammar } from './kimi-k2-call-grammar.js';
import { kimiCallId } from './kimi-k2-call-id.js';
import { toolCallArgumentBegin, toolCallBegin, toolCallEnd, toolCallsSectionBegin, toolCallsSectionEnd } from './kimi-k2-tokens.js';
import { kimiK2Residue } from './kimi-k2-residue.js';
import { placeKimiToolDeclaration, renderKimiToolDeclaration } from './kimi-k2-tool-declaration.js';

const family = 'kimi-k2';
/**
 * The arguments are scanned as JSON, so a section or call end token inside one of their strings does
 * not end the section (llama.cpp reads them with its JSON parser; vLLM's parsers look for the tokens in the raw text).
 */
const argumentsAreJson = { jsonValuesAfter: [toolCallArgumentBegin] };

/** One call block; `ordinal` numbers it when the call has no Kimi id yet. */
function renderKimiCall(call: Pick<ToolCallPart, 'name' | 'arguments'> & { id?: string }, ordinal: number): string {
  return (
    toolCallBegin + kimiCallId(call, ordinal) + toolCallArgumentBegin + formatJson(argumentsForRendering(call.arguments)) + toolCallEnd
  );
}

export const kimiK2Family: FamilySpec = {
  family,
  // No renderReasoningInText: Kimi K2 Thinking's template writes `<think>` + the reasoning field +
  // `</think>` before every assistant content itself and reads no block back out of the content
  // (moonshotai-Kimi-K2-Thinking.jinja), so a block in the text would follow an empty one.
  // Special in Kimi K2's tokenizer; vLLM's kimi_k2 parser turns skip_special_tokens off for them (adjust_request).
  specialTokens: [toolCallsSectionBegin, toolCallsSectionEnd, toolCallBegin, toolCallArgumentBegin, toolCallEnd],
  envelopes: [
    taggedEnvelope(family, toolCallsSectionBegin, toolCallsSectionEnd, [kimiCallGrammar], argumentsAreJson),
    // A call without its section; the section end that may follow it is a framing token.
    taggedEnvelope(family, toolCallBegin, toolCallEnd, [kimiCallGrammar], argumentsAreJson),
  ],
  reasoningTags: [
    { open: '<think>', close: '</think>', endsBefore: [toolCallsSectionBegin, toolCallBegin] },
    // Kimi-VL's thinking models write their reasoning between these instead.
    { open: '◁think▷', close: '◁/think▷' },
  ],
  framingTokens: [toolCallsSectionEnd, '<|im_end|>'],
  strippedResidue: kimiK2Residue,
  // The templates' `tool_declare` turn, written from inside the system message (kimi-k2-tool-declaration.ts),
  // and no instructions, as the templates give none. Results are the templates' `## Return of ID` blocks,
  // one per turn as the templates write their `tool` turns, but user turns: a chat request cannot send
  // `tool` system turns. Kimi K2's first template drops assistant tool_calls from history, so calls are
  // written as K2 Thinking's template writes them. See docs/prompt-fidelity.md.
  prompt: { introduction: '', renderToolList: renderKimiToolDeclaration, callInstructions: '' },
  placeToolPrompt: placeKimiToolDeclaration,
  turnPerResult: true,
  renderCall: (call) => toolCallsSectionBegin + renderKimiCall(call, 0) + toolCallsSectionEnd,
  renderCalls: (calls) => toolCallsSectionBegin + calls.map(renderKimiCall).join('') + toolCallsSectionEnd,
  familyCallId: kimiCallId,
  renderResults: (results) =>
    results
      .map(
        (result, index) =>
          `## Return of ${kimiCallId({ id: result.toolCallId, name: result.toolName ?? '' }, index)}\n${resultText(result)}`,
      )
      .join('\n\n'),
};
