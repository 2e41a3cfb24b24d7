/** The plamo3 family (Preferred Networks PLaMo 3): `<|plamo:begin_tool_requests:plamo|>` sections of tagged name + JSON-arguments requests. */
// Read: one section holding one or more requests (see `plamo3-request-grammar.ts`); arguments are JSON,
// so a value holding a closing tag is kept by the arguments' own value span; `<think>` reasoning.
// Written: the same section, one per turn; results as tagged blocks in a user turn. The wording follows
// the parser's documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/plamo3_tool_parser.py
import { hermesPrompt } from '../shared/hermes-layout.js';
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { taggedResults } from '../shared/tool-result-text.js';
import { plamo3RequestGrammar, plamo3Values } from './plamo3-request-grammar.js';
import {
  argumentsClose,
  argumentsOpen,
  nameClose,
  nameOpen,
  requestClose,
  requestOpen,
  requestsClose,
  requestsOpen,
} from './plamo3-tokens.js';

const family = 'plamo3';

function renderRequest(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return `${requestOpen}${nameOpen}${call.name}${nameClose}${argumentsOpen}${formatJson(argumentsForRendering(call.arguments))}${argumentsClose}${requestClose}`;
}

export const plamo3Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, requestsOpen, requestsClose, [plamo3RequestGrammar], {
      valueSpans: plamo3Values,
    }),
  ],
  prompt: {
    // The Qwen-style words many templates share, for the tool list (see the note at the top).
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'To call functions, write one tool-requests block holding one request per call, its arguments as one JSON object:',
      `${requestsOpen}${requestOpen}${nameOpen}function_name${nameClose}${argumentsOpen}{"argument_name": "value"}${argumentsClose}${requestClose}${requestsClose}`,
      'Put several requests one after another inside the same block. When no function is needed, answer directly.',
    ].join('\n'),
    resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags.',
  },
  renderCall: (call) => requestsOpen + renderRequest(call) + requestsClose,
  renderCalls: (calls) => requestsOpen + calls.map(renderRequest).join('') + requestsClose,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
