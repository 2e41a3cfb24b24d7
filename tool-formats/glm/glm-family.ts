/** The glm family (GLM-4.5/4.6/4.7): `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>` calls. */
// One block per call. The prompt follows the GLM-4.5 chat template; its tool messages go back after
// <|observation|> as <tool_response> blocks, which the prompted lane writes into a user turn.
// @see https://huggingface.co/zai-org/GLM-4.5/blob/main/chat_template.jinja
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import type { CallRenderer } from '../shared/tool-prompt.js';
import { renderFunctionLines } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';
import {
  argumentKeyClose,
  argumentKeyOpen,
  argumentValueClose,
  argumentValueOpen,
  glmArgumentPairsGrammar,
} from '../shared/arg-pairs-grammar.js';

const family = 'glm';

/** The GLM-4.5 layout (4.7 drops the newlines, and reads this too): strings as they are, other values as JSON. */
export const renderGlmCall: CallRenderer = (call) => {
  const pairs = rawArgumentEntries(call.arguments).map(
    ([key, value]) => `${argumentKeyOpen}${key}${argumentKeyClose}\n${argumentValueOpen}${value}${argumentValueClose}\n`,
  );
  return `<tool_call>${call.name}\n${pairs.join('')}</tool_call>`;
};

export const glmFamily: FamilySpec = {
  family,
  // GLM-4.5's end-of-turn tokens, present when a server is asked to keep special tokens.
  framingTokens: ['<|endoftext|>', '<|user|>', '<|observation|>'],
  // The GLM-4.5 template renders `tools`, assistant `tool_calls` and `tool` messages (after <|observation|>).
  templateRendersTools: true,
  envelopes: [
    // A string value may hold code with `</tool_call>` in it; only `</arg_value>` ends it.
    taggedEnvelope(family, '<tool_call>', '</tool_call>', [glmArgumentPairsGrammar], {
      valueSpans: [{ open: argumentValueOpen, close: argumentValueClose }],
    }),
  ],
  prompt: {
    introduction: '# Tools\n\nYou may call one or more functions to assist with the user query.',
    renderToolList: (tools) =>
      `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${renderFunctionLines(tools)}\n</tools>`,
    callInstructions: [
      'For each function call, output the function name and arguments within the following XML format:',
      '<tool_call>{function-name}',
      '<arg_key>{arg-key-1}</arg_key>',
      '<arg_value>{arg-value-1}</arg_value>',
      '<arg_key>{arg-key-2}</arg_key>',
      '<arg_value>{arg-value-2}</arg_value>',
      '...',
      '</tool_call>',
      // Not in the template, whose examples only show it: what a value looks like.
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON.',
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the next user turn, each inside <tool_response></tool_response> XML tags. When no function is needed, answer directly.',
  },
  renderCall: renderGlmCall,
  // The template's `'\n<think>' + reasoning_content.strip() + '</think>'`, then `'\n' + content.strip()`
  // (glm_4_5.jinja): a block it splits back out of the content at `</think>` and renders the same.
  renderReasoningInText: (reasoning, text) => `<think>${reasoning.trim()}</think>\n${text}`,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
