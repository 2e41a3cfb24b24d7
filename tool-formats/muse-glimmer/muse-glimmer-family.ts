/** The muse-glimmer family (MuseGlimmer): Harmony-style messages by recipient, tool calls in ATEM markup. */
// A turn is messages `<|start|>assistant to=RECIPIENT<|message|>…` ended by `<|eom|>` (more follow) or
// `<|eot|>`: `to=self` is reasoning, `to=user` (or no recipient) the answer, any other recipient a tool
// message whose content is `<atem:function_calls>` invokes. The generation prompt ends in
// `<|start|>assistant`, so the reply begins inside the first header (` to=self<|message|>`). A tool
// message starts like Harmony's role-header recipients and is scanned the same way (one marker scans one
// way everywhere), its own grammar reading the ATEM content; `<|eom|>` and `<|eot|>` end it too.
// Written: a tool message per call. The wording follows the parsers' documented format (the model's
// template was not available to read).
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/muse-glimmer.cpp
// @see https://github.com/vllm-project/vllm/blob/main/vllm/frontend/processing/tool_parsers/muse_glimmer_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { functionMessage } from '../harmony/harmony-family.js';
import { hermesPrompt, hermesResults } from '../shared/hermes-layout.js';
import type { Envelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers, formatJson } from '../shared/format-json.js';
import {
  atemInvokeClose,
  atemInvokeOpen,
  atemMessageGrammar,
  atemParameterClose,
  atemParameterOpen,
  atemSectionClose,
  atemSectionOpen,
} from './atem-message-grammar.js';

const family = 'muse-glimmer';
const messageStart = '<|start|>assistant';
const endOfMessage = '<|eom|>';
const endOfTurn = '<|eot|>';

/** A tool message, scanned as Harmony's role-header recipients are. */
const toolMessage: Envelope = {
  ...functionMessage,
  family,
  start: [`${messageStart} to=`],
  end: [endOfMessage, endOfTurn],
  grammars: [atemMessageGrammar],
};

function renderParameter([key, value]: [string, unknown]): string {
  return `${atemParameterOpen} name="${key}">${typeof value === 'string' ? value : formatJson(value)}${atemParameterClose}`;
}

function renderToolMessage(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const parameters = Object.entries(argumentsAsMembers(call.arguments)).map(renderParameter);
  const invoke = [`${atemInvokeOpen} name="${call.name}">`, ...parameters, atemInvokeClose].join('\n');
  return `${messageStart} to=${call.name}<|message|>${atemSectionOpen}\n${invoke}\n${atemSectionClose}${endOfMessage}`;
}

export const museGlimmerFamily: FamilySpec = {
  family,
  envelopes: [toolMessage],
  reasoningTags: [{ open: `${messageStart} to=self<|message|>`, close: endOfMessage, scope: 'family' }],
  familyFramingTokens: [`${messageStart} to=user<|message|>`, endOfTurn, endOfMessage],
  replyStart: {
    envelopes: [{ ...toolMessage, start: [' to='] }],
    reasoningTags: [{ open: ' to=self<|message|>', close: endOfMessage }],
    framingTokens: [' to=user<|message|>'],
  },
  prompt: {
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'To call a function, write a message addressed to it, holding one invoke:',
      `${messageStart} to=function_name<|message|>${atemSectionOpen}`,
      `${atemInvokeOpen} name="function_name">`,
      `${atemParameterOpen} name="argument_name">value${atemParameterClose}`,
      atemInvokeClose,
      `${atemSectionClose}${endOfMessage}`,
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Write your answer to the user in a message addressed to=user.',
    ].join('\n'),
    resultInstructions: hermesPrompt.resultInstructions,
  },
  renderCall: renderToolMessage,
  renderCalls: (calls) => calls.map(renderToolMessage).join(''),
  renderResults: hermesResults,
};
