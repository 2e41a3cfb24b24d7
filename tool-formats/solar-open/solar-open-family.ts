/** The solar-open family (Upstage Solar Open 2): `<|tool_call:start|>NAME` then `<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|>` pairs. */
// Read: one block per call, closed by `<|tool_call:end|>`; the name is the rest of the start token's
// line; values are raw text, kept as written when the schema says string, else read as JSON, as vLLM's
// solar_open2 parser coerces them by the tool's schema. GLM's arg-pairs reader with Solar's tokens:
// the value has no opening tag of its own, `<|tool_arg:value|>` ends the key. A value may hold code
// with `<|tool_call:end|>` in it; only `<|tool_arg:end|>` ends it.
// Written: the same blocks, one per line; results as tagged blocks in a user turn. The wording follows
// the parser's documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/solar_open2_tool_parser.py
import { hermesPrompt } from '../shared/hermes-layout.js';
import { argumentPairsGrammar, type ArgumentPairTags } from '../shared/arg-pairs-grammar.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import type { CallRenderer } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'solar-open';
const callStart = '<|tool_call:start|>';
const callEnd = '<|tool_call:end|>';

const solarArgumentTags: ArgumentPairTags = {
  id: 'solar-open-arg-pairs',
  keyOpen: '<|tool_arg:start|>',
  keyClose: '<|tool_arg:value|>',
  valueOpen: '',
  valueClose: '<|tool_arg:end|>',
  callClose: callEnd,
};

export const renderSolarOpenCall: CallRenderer = (call) => {
  const pairs = rawArgumentEntries(call.arguments).map(
    ([key, value]) => `${solarArgumentTags.keyOpen}${key}${solarArgumentTags.keyClose}${value}${solarArgumentTags.valueClose}\n`,
  );
  return `${callStart}${call.name}\n${pairs.join('')}${callEnd}`;
};

export const solarOpenFamily: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, callStart, callEnd, [argumentPairsGrammar(solarArgumentTags)], {
      valueSpans: [{ open: solarArgumentTags.keyClose, close: solarArgumentTags.valueClose }],
    }),
  ],
  prompt: {
    // The Qwen-style words many templates share, for the tool list (see the note at the top).
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'For each function call, write the function name and its arguments in the following format:',
      `${callStart}{function-name}`,
      `${solarArgumentTags.keyOpen}{arg-key-1}${solarArgumentTags.keyClose}{arg-value-1}${solarArgumentTags.valueClose}`,
      `${solarArgumentTags.keyOpen}{arg-key-2}${solarArgumentTags.keyClose}{arg-value-2}${solarArgumentTags.valueClose}`,
      callEnd,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Write one block per call; several blocks may follow one another.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: renderSolarOpenCall,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
