/** The minicpm family (OpenBMB MiniCPM5): `<function name="N"><param name="K">V</param></function>` blocks. */
// Read: one block per call (see `minicpm-function-grammar.ts`); a value may hold code with
// `</function>` in it, only `</param>` ends it; `<think>` reasoning. `<function=` (Llama's and
// Qwen3-Coder's) is another marker and keeps its meaning.
// Written: the same blocks, one per line; results as tagged blocks in a user turn. The wording follows
// the parser's documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/minicpm5xml_tool_parser.py
import { hermesPrompt } from '../shared/hermes-layout.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import type { CallRenderer } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';
import { minicpmFunctionGrammar, paramClose, paramOpen } from './minicpm-function-grammar.js';

const family = 'minicpm';
const functionOpen = '<function name="';
const functionClose = '</function>';

export const renderMinicpmCall: CallRenderer = (call) => {
  const parameters = rawArgumentEntries(call.arguments).map(([key, value]) => `${paramOpen}${key}">${value}${paramClose}`);
  return `${functionOpen}${call.name}">${parameters.join('')}${functionClose}`;
};

export const minicpmFamily: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, [functionOpen, "<function name='"], functionClose, [minicpmFunctionGrammar], {
      valueSpans: [{ open: paramOpen, close: paramClose }],
    }),
  ],
  prompt: {
    // The Qwen-style words many templates share, for the tool list (see the note at the top).
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'For each function call, write one function block with its parameters:',
      `${functionOpen}function_name">${paramOpen}parameter_name">value${paramClose}${functionClose}`,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Write one block per call.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: renderMinicpmCall,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
