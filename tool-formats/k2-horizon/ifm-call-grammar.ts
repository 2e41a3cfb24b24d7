/** K2 Horizon's calls inside `<ifm|tool_calls>`: `<ifm|tool_call>` blocks of GLM-style pairs (`xml`, `xml_typed`) or JSON (`json`). */
// The template's `tool_call_format` chooses the body: `NAME` then `<ifm|arg_key>K</ifm|arg_key>
// [<ifm|arg_type>T</ifm|arg_type>]<ifm|arg_value>V</ifm|arg_value>` pairs, or `{"name", "arguments"}`.
// The type tag is dropped: the tool's schema types the value, as vLLM's parser prefers it (and llama.cpp
// notes the models often leave the tag out even when asked for it).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/k2_horizon_tool_parser.py
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/k2-horizon.cpp
import { argumentPairsGrammar, type ArgumentPairTags } from '../shared/arg-pairs-grammar.js';
import { callSectionGrammar } from '../shared/call-section-grammar.js';
import type { ValueSpan } from '../shared/envelope.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';

export const ifmSectionOpen = '<ifm|tool_calls>';
export const ifmSectionClose = '</ifm|tool_calls>';
export const ifmCallOpen = '<ifm|tool_call>';
export const ifmCallClose = '</ifm|tool_call>';

export const ifmArgumentTags: ArgumentPairTags = {
  id: 'k2-horizon-arg-pairs',
  keyOpen: '<ifm|arg_key>',
  keyClose: '</ifm|arg_key>',
  valueOpen: '<ifm|arg_value>',
  valueClose: '</ifm|arg_value>',
  callClose: ifmCallClose,
};

/** A type tag right after a key's close (`xml_typed`); only there, so a value may still show one. */
const typeTag = /(<\/ifm\|arg_key>)\s*<ifm\|arg_type>[^<]*<\/ifm\|arg_type>/g;

const pairsGrammar = argumentPairsGrammar(ifmArgumentTags);

/** Raw values: the section's and a call's end tags inside one are its text. */
export const ifmValues: readonly ValueSpan[] = [{ open: ifmArgumentTags.valueOpen, close: ifmArgumentTags.valueClose }];

export const ifmCallGrammar = callSectionGrammar({
  id: 'k2-horizon-calls',
  values: { type: 'spans', spans: ifmValues },
  callStart: ifmCallOpen,
  callEnd: ifmCallClose,
  acceptsCall: () => false,
  readCall: (call, framing, context) =>
    call.startsWith('{')
      ? jsonCallGrammar.decode(call, { ...context, framing })
      : pairsGrammar.decode(call.replace(typeTag, '$1'), { ...context, framing }),
});
