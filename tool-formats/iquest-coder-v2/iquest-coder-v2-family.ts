/** The iquest-coder-v2 family (IQuest-Coder V2): `<iquestcoder_tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></iquestcoder_tool_call>`. */
// Read: GLM's arg pairs inside IQuest's own call tags, one call per block, values typed by the tool's
// schema (a string stays as written, whitespace included, as vLLM's parser keeps it). IQuest-Coder V1
// writes Qwen3-Coder's `<function=…>` blocks and is routed to qwen3-coder instead.
// Written: one block per call. The wording follows the parser's documented format (the V2 template was
// not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/iquest_coder_v2_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import {
  argumentKeyClose,
  argumentKeyOpen,
  argumentPairsGrammar,
  argumentValueClose,
  argumentValueOpen,
  glmArgumentTags,
} from '../shared/arg-pairs-grammar.js';
import { hermesPrompt } from '../shared/hermes-layout.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'iquest-coder-v2';
const callOpen = '<iquestcoder_tool_call>';
const callClose = '</iquestcoder_tool_call>';

function renderIquestCall(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const pairs = rawArgumentEntries(call.arguments).map(
    ([key, value]) => `${argumentKeyOpen}${key}${argumentKeyClose}${argumentValueOpen}${value}${argumentValueClose}\n`,
  );
  return `${callOpen}${call.name}\n${pairs.join('')}${callClose}`;
}

export const iquestCoderV2Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(
      family,
      callOpen,
      callClose,
      [argumentPairsGrammar({ ...glmArgumentTags, id: 'iquest-coder-v2-arg-pairs', callClose })],
      {
        valueSpans: [{ open: argumentValueOpen, close: argumentValueClose }],
      },
    ),
  ],
  prompt: {
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'For each function call, write one block with the function name and its arguments:',
      `${callOpen}function_name`,
      `${argumentKeyOpen}argument_name${argumentKeyClose}${argumentValueOpen}value${argumentValueClose}`,
      callClose,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: renderIquestCall,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
