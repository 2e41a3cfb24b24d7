/** The dots family (rednote-hilab dots.llm): `<dots_function_call>` blocks of `<invoke>` calls, or one JSON call. */
// Read: `<dots_function_call><invoke name="F"><parameter name="K">V</parameter></invoke></dots_function_call>`,
// several invokes per block and several blocks, values converted by the tool's schema; a block holding a
// `{"name", "arguments"}` object instead, as vLLM's dots parser also accepts.
// Written: the invoke form. No chat template with the tool prompt was found, so the prompt describes the
// format vLLM's parser documents, in the layout the invoke families (MiniMax-M2) use.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/dots_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import { invokeParametersGrammar, type InvokeTags } from '../shared/invoke-parameters-grammar.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'dots';
const blockOpen = '<dots_function_call>';
const blockClose = '</dots_function_call>';
const tags: InvokeTags = {
  id: 'dots-invoke',
  invokeOpen: '<invoke',
  invokeClose: '</invoke>',
  parameterOpen: '<parameter',
  parameterClose: '</parameter>',
};

function renderInvoke(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const parameters = rawArgumentEntries(call.arguments).map(
    ([key, value]) => `${tags.parameterOpen} name="${key}">${value}${tags.parameterClose}\n`,
  );
  return `${tags.invokeOpen} name="${call.name}">\n${parameters.join('')}${tags.invokeClose}`;
}

function renderBlock(calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]): string {
  return `${blockOpen}\n${calls.map(renderInvoke).join('\n')}\n${blockClose}`;
}

export const dotsFamily: FamilySpec = {
  family,
  envelopes: [
    // Only `</parameter>` ends a value, so a value may hold code with the block's close tag in it.
    taggedEnvelope(family, blockOpen, blockClose, [invokeParametersGrammar(tags), jsonCallGrammar], {
      valueSpans: [{ open: tags.parameterOpen, close: tags.parameterClose }],
    }),
  ],
  prompt: {
    introduction: '# Tools\n\nYou may call one or more tools to assist with the user query.',
    renderToolList: (tools) => `Here are the tools available in JSONSchema format:\n<tools>\n${renderFunctionLines(tools)}\n</tools>`,
    callInstructions: [
      `When making tool calls, use XML format to invoke tools and pass parameters, inside ${blockOpen}${blockClose}:`,
      blockOpen,
      '<invoke name="tool-name-1">',
      '<parameter name="param-key-1">param-value-1</parameter>',
      '<parameter name="param-key-2">param-value-2</parameter>',
      '...',
      '</invoke>',
      blockClose,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON.',
    ].join('\n'),
    resultInstructions:
      'Tool results come back to you in the next user turn, each inside <tool_response></tool_response> tags. When no tool is needed, answer directly.',
  },
  renderCall: (call) => renderBlock([call]),
  renderCalls: renderBlock,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
