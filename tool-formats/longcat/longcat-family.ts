/** The longcat family (Meituan LongCat-Flash): calls in `<longcat_tool_call>` tags, JSON or arg-key pairs. */
// Read: `<longcat_tool_call>{"name", "arguments"}</longcat_tool_call>` (LongCat-Flash-Chat; vLLM's longcat
// parser is its Hermes parser with these tags) and the later `NAME<longcat_arg_key>K</longcat_arg_key>
// <longcat_arg_value>V</longcat_arg_value>` body (GLM's arg pairs with prefixed tags, values converted by
// the tool's schema). A block the reply ended in yields its call when the JSON is complete.
// Written: the JSON form the model card shows; results as `<longcat_tool_response>` blocks.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/longcat_tool_parser.py
// @see https://huggingface.co/meituan-longcat/LongCat-Flash-Chat
import { argumentPairsGrammar, type ArgumentPairTags } from '../shared/arg-pairs-grammar.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'longcat';
export const longcatCallOpen = '<longcat_tool_call>';
export const longcatCallClose = '</longcat_tool_call>';

export const longcatArgumentTags: ArgumentPairTags = {
  id: 'longcat-arg-pairs',
  keyOpen: '<longcat_arg_key>',
  keyClose: '</longcat_arg_key>',
  valueOpen: '<longcat_arg_value>',
  valueClose: '</longcat_arg_value>',
  callClose: longcatCallClose,
};

export const longcatFamily: FamilySpec = {
  family,
  envelopes: [
    // A string value may hold code with the close tag in it; only `</longcat_arg_value>` ends it.
    taggedEnvelope(family, longcatCallOpen, longcatCallClose, [jsonCallGrammar, argumentPairsGrammar(longcatArgumentTags)], {
      valueSpans: [{ open: longcatArgumentTags.valueOpen, close: longcatArgumentTags.valueClose }],
    }),
  ],
  prompt: {
    introduction: '# Tools\n\nYou may call one or more functions to assist with the user query.',
    renderToolList: (tools) =>
      `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${renderFunctionLines(tools)}\n</tools>`,
    callInstructions: [
      `For each function call, return a json object with function name and arguments within ${longcatCallOpen}${longcatCallClose} XML tags:`,
      longcatCallOpen,
      '{"name": <function-name>, "arguments": <args-dict>}',
      longcatCallClose,
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the next user turn, each inside <longcat_tool_response></longcat_tool_response> XML tags. When no function is needed, answer directly.',
  },
  renderCall: (call) =>
    `${longcatCallOpen}\n${formatJson({ name: call.name, arguments: argumentsForRendering(call.arguments) })}\n${longcatCallClose}`,
  renderResults: taggedResults('<longcat_tool_response>', '</longcat_tool_response>'),
};
