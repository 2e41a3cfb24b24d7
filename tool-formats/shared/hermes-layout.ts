/**
 * The Hermes `<tool_call>` layout many families reuse as it is: the prompt (Qwen2.5's chat template
 * wording), a call written as a `<tool_call>` JSON block, and results as `<tool_response>` blocks in a user turn.
 */
import type { FamilySpec } from './family-spec.js';
import { argumentsForRendering, formatJson } from './format-json.js';
import { renderFunctionLines } from './tool-prompt.js';
import { taggedResults } from './tool-result-text.js';

export const hermesPrompt: FamilySpec['prompt'] = {
  introduction: '# Tools\n\nYou may call one or more functions to assist with the user query.',
  renderToolList: (tools) =>
    `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${renderFunctionLines(tools)}\n</tools>`,
  callInstructions: [
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
    '<tool_call>',
    '{"name": <function-name>, "arguments": <args-json-object>}',
    '</tool_call>',
  ].join('\n'),
  resultInstructions:
    'Function results come back to you in the next user turn, each inside <tool_response></tool_response> XML tags. When no function is needed, answer directly.',
};

export const renderHermesCall: FamilySpec['renderCall'] = (call) =>
  `<tool_call>\n${formatJson({ name: call.name, arguments: argumentsForRendering(call.arguments) })}\n</tool_call>`;

export const hermesResults: FamilySpec['renderResults'] = taggedResults('<tool_response>', '</tool_response>');
