/** The k2-horizon family (MBZUAI IFM K2 Horizon): `<ifm|tool_calls>` sections of `<ifm|tool_call>` blocks. */
// Read: each block is `NAME` and `<ifm|arg_key>`/`<ifm|arg_value>` pairs (the default `xml` format, with
// an optional `<ifm|arg_type>` tag in `xml_typed`) or a JSON call (`json`), values typed by the tool's
// schema; a value may hold the section's close tag, only `</ifm|arg_value>` ends it. Reasoning is
// `<ifm|think>`, or `<ifm|think_fast>` / `<ifm|think_faster>` at lower reasoning effort.
// Written: the default `xml` format, one section per turn, the name on its own line as llama.cpp's grammar
// has it. The wording follows the parsers' documented format (the model's template was not available).
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/k2-horizon.cpp
import type { ToolCallPart } from '../../src/core/index.js';
import { hermesPrompt } from '../shared/hermes-layout.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import { taggedResults } from '../shared/tool-result-text.js';
import {
  ifmArgumentTags,
  ifmCallClose,
  ifmCallGrammar,
  ifmCallOpen,
  ifmSectionClose,
  ifmSectionOpen,
  ifmValues,
} from './ifm-call-grammar.js';

const family = 'k2-horizon';
const { keyOpen, keyClose, valueOpen, valueClose } = ifmArgumentTags;

function renderBlock(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const pairs = rawArgumentEntries(call.arguments).map(([key, value]) => `${keyOpen}${key}${keyClose}${valueOpen}${value}${valueClose}\n`);
  return `${ifmCallOpen}${call.name}\n${pairs.join('')}${ifmCallClose}`;
}

const thinkTag = (name: string) => ({ open: `<${name}>`, close: `</${name}>` });

export const k2HorizonFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, ifmSectionOpen, ifmSectionClose, [ifmCallGrammar], { valueSpans: ifmValues })],
  reasoningTags: [thinkTag('ifm|think'), thinkTag('ifm|think_fast'), thinkTag('ifm|think_faster')],
  prompt: {
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'To call functions, write one tool-calls section holding one block per call:',
      `${ifmSectionOpen}${ifmCallOpen}function_name`,
      `${keyOpen}argument_name${keyClose}${valueOpen}value${valueClose}`,
      `${ifmCallClose}${ifmSectionClose}`,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Put several calls one after another inside the same section.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => ifmSectionOpen + renderBlock(call) + ifmSectionClose,
  renderCalls: (calls) => ifmSectionOpen + calls.map(renderBlock).join('') + ifmSectionClose,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
