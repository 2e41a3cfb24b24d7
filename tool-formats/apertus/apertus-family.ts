/** The apertus family (Swiss AI Apertus): `<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>` calls. */
// Read: one JSON array per section, each element `{"NAME": {arguments}}`; `<|inner_prefix|>…
// <|inner_suffix|>` reasoning; `<|assistant_end|>` dropped when the server leaves it in.
// Written: the same section, the tools as JSON function signatures, results as JSON lines in a user
// turn (the template gives tool outputs a turn of their own, which a user turn cannot open).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/apertus_tool_parser.py
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/chat-parsers/apertus.cpp
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';
import { apertusCallGrammar } from './apertus-call-grammar.js';

const family = 'apertus';
export const toolsPrefix = '<|tools_prefix|>';
export const toolsSuffix = '<|tools_suffix|>';

const callObject = (call: Pick<ToolCallPart, 'name' | 'arguments'>) => ({ [call.name]: argumentsForRendering(call.arguments) });

export const apertusFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, toolsPrefix, toolsSuffix, [apertusCallGrammar])],
  reasoningTags: [{ open: '<|inner_prefix|>', close: '<|inner_suffix|>' }],
  framingTokens: ['<|assistant_end|>'],
  prompt: {
    introduction: '# Tools\n\nYou may call one or more of the following functions to help with the request. They are declared in JSON:',
    renderToolList: renderFunctionLines,
    callInstructions: [
      'To call functions, write one list holding one object per call, whose only key is the function name and whose value holds the arguments:',
      `${toolsPrefix}[{"function_name": {"argument": "value"}}, {"other_function": {}}]${toolsSuffix}`,
      'When no function is needed, answer directly.',
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}.',
  },
  renderCall: (call) => `${toolsPrefix}${formatJson([callObject(call)])}${toolsSuffix}`,
  // Parallel calls share one list, as the template writes them.
  renderCalls: (calls) => `${toolsPrefix}${formatJson(calls.map(callObject))}${toolsSuffix}`,
  renderResults: jsonResultLines,
};
