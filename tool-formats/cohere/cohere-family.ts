/** The cohere family (Command R7B, Command A): `<|START_ACTION|>[{"tool_call_id","tool_name","parameters"}]<|END_ACTION|>`. */
// Read: one JSON list of calls per action; the model's `tool_call_id` is kept as the call id (the
// template numbers calls over the conversation, "0", "1", …, and pairs each result with its call by
// it); `<|START_THINKING|>…<|END_THINKING|>` is reasoning; the `<|START_RESPONSE|>…<|END_RESPONSE|>`
// framing around the answer is dropped. Written: the template's action list and tool-result list,
// with ids numbered over the conversation as the template's `tool_call_id_to_int` does.
// Cohere2 MoE ("North Code") writes the same actions, its answer in `<|START_TEXT|>…<|END_TEXT|>`, and its
// template opens `<|START_THINKING|>` in the generation prompt; llama.cpp ends that block at its close or
// before the answer or an action, so the reasoning tag ends before them too. Citation tags are dropped
// from text and reasoning, keeping the cited text (`cohere-citations.ts`).
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/cohere2moe.cpp
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/cohere_command_tool_parser.py
import type { ToolCallPart, ToolResultPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { cohereCitations } from './cohere-citations.js';
import {
  endAction,
  endOfTurn,
  endResponse,
  endText,
  endThinking,
  endToolResult,
  startAction,
  startResponse,
  startText,
  startThinking,
  startToolResult,
} from './cohere-tokens.js';

const family = 'cohere';

/** The template's ids are the call's position in the conversation; a call without one (an example) is "0". */
const cohereCallId = (_call: { id: string; name: string }, ordinal: number) => String(ordinal);

function actionLine(call: Pick<ToolCallPart, 'name' | 'arguments'> & { id?: string }): string {
  return `    ${formatJson({ tool_call_id: call.id ?? '0', tool_name: call.name, parameters: argumentsForRendering(call.arguments) })}`;
}

const renderAction = (calls: readonly (Pick<ToolCallPart, 'name' | 'arguments'> & { id?: string })[]) =>
  `${startAction}[\n${calls.map(actionLine).join(',\n')}\n]${endAction}`;

/** One result as the template's `format_tool_message` lays it out (its output as the one result "0"); an error is flagged. */
function resultBlock(result: ToolResultPart): string {
  return [
    '    {',
    `        "tool_call_id": ${formatJson(result.toolCallId)},`,
    '        "results": {',
    `            "0": ${formatJson(result.output)}`,
    '        },',
    `        "is_error": ${result.isError === true ? 'true' : 'null'}`,
    '    }',
  ].join('\n');
}

export const cohereFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, startAction, endAction, [jsonCallGrammar])],
  reasoningTags: [{ open: startThinking, close: endThinking, endsBefore: [startAction, startText] }],
  framingTokens: [startResponse, endResponse, endOfTurn],
  familyFramingTokens: [startText, endText],
  inlineMarkup: cohereCitations,
  // The template writes this Tool Use section and the tool list in its own system preamble, before its
  // default preamble; through the chat API a system message lands in the developer preamble after it, so
  // the same words go there. Results stay in a user turn: the template's system turn for them cannot be
  // sent mid-conversation (system messages are folded into the first). See docs/prompt-fidelity.md.
  prompt: {
    introduction: [
      "You have been trained to have advanced reasoning and tool-use capabilities and you should make best use of these skills to serve user's requests.",
      '',
      '## Tool Use',
      'Think about how you can make best use of the provided tools to help with the task and come up with a high level plan that you will execute first.',
      '',
      `0. Start by writing ${startThinking} followed by a detailed step by step plan of how you will solve the problem. For each step explain your thinking fully and give details of required tool calls (if needed). Unless specified otherwise, you write your plan in natural language. When you finish, close it out with ${endThinking}.`,
      '    You can optionally choose to skip this step when the user request is so straightforward to address that only a trivial plan would be needed.',
      "    NOTE: You MUST skip this step when you are directly responding to the user's request without using any tools.",
      '',
      'Then carry out your plan by repeatedly executing the following steps.',
      `1. Action: write ${startAction} followed by a list of JSON-formatted tool calls, with each one containing "tool_name" and "parameters" fields.`,
      `    When there are multiple tool calls which are completely independent of each other (i.e. they can be executed in parallel), you should list them out all together in one step. When you finish, close it out with ${endAction}.`,
      `2. Observation: you will then receive results of those tool calls in JSON format in the very next turn, wrapped around by ${startToolResult} and ${endToolResult}. Carefully observe those results and think about what to do next. Note that these results will be provided to you in a separate turn. NEVER hallucinate results.`,
      '    Every tool call produces a list of results (when a tool call produces no result or a single result, it\'ll still get wrapped inside a list). Each result is clearly linked to its originating tool call via its "tool_call_id".',
      `3. Reflection: start the next turn by writing ${startThinking} followed by what you've figured out so far, any changes you need to make to your plan, and what you will do next. When you finish, close it out with ${endThinking}.`,
      '    You can optionally choose to skip this step when everything is going according to plan and no special pieces of information or reasoning chains need to be recorded.',
      '    NOTE: You MUST skip this step when you are done with tool-use actions and are ready to respond to the user.',
      '',
      "You can repeat the above 3 steps multiple times (could be 0 times too if no suitable tool calls are available or needed), until you decide it's time to finally respond to the user.",
      '',
      `4. Response: then break out of the loop and write ${startResponse} followed by a piece of text which serves as a response to the user's last request. Use all previous tool calls and results to help you when formulating your response. When you finish, close it out with ${endResponse}.`,
      '',
      '## Available Tools',
      'Here is the list of tools that you have available to you.',
      'You can ONLY use the tools listed here. When a tool is not listed below, it is NOT available and you should NEVER attempt to use it.',
      'Each tool is represented as a JSON object with fields like "name", "description", "parameters" (per JSON Schema), and optionally, "responses" (per JSON Schema).',
    ].join('\n'),
    renderToolList: (tools) =>
      '```json\n[\n' + tools.map((tool) => `    ${formatJson({ ...toolSignature(tool), responses: null })}`).join(',\n') + '\n]\n```',
    // The template shows no call; its step 1 says how to write one.
    callInstructions: '',
  },
  renderCall: (call) => renderAction([call]),
  renderCalls: renderAction,
  familyCallId: cohereCallId,
  renderResults: (results) => `${startToolResult}[\n${results.map(resultBlock).join(',\n')}\n]${endToolResult}`,
};
