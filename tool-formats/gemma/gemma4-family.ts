/** The gemma4 family (Gemma 4): declarations in `<|tool>…<tool|>`, calls as `<|tool_call>call:NAME{…}<tool_call|>`, results as `<|tool_response>`. */
// Gemma 4 has tool tokens of its own, so it is sent what its chat template writes rather than Gemma 3's
// tool_code recipe: the declarations right after the system text, with no instructions (the template
// has none), calls in its value syntax, and each result as `response:NAME{…}` inside the model's turn,
// after its calls and before its next words. The parser is the gemma family's (its `<|tool_call>`
// envelope first), which also reads the tool_code fences a Gemma 4 may still write.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/gemma4.jinja
// @see https://ai.google.dev/gemma/docs/core/prompt-formatting-gemma4
import type { ToolCallPart, ToolResultPart } from '../../src/core/index.js';
import { isPlainObject } from '../shared/call-arguments.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers, argumentsForRendering } from '../shared/format-json.js';
import { resultText } from '../shared/tool-result-text.js';
import { gemmaFamily } from './gemma-family.js';
import { renderGemma4Declarations } from './gemma4-declaration.js';
import { formatGemma4Members, formatGemma4Value } from './gemma4-values.js';

const family = 'gemma4';
const called = { delimitKeys: false, sortKeys: false };
const returned = { delimitKeys: false, sortKeys: true };

function renderGemma4Call(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return `<|tool_call>call:${call.name}{${formatGemma4Members(argumentsAsMembers(call.arguments), called)}}<tool_call|>`;
}

/** An object result is written member by member; any other output (text, an error) as `value`. */
function renderGemma4Result(result: ToolResultPart): string {
  const value = result.isError === true ? undefined : argumentsForRendering(result.output);
  const members = isPlainObject(value) ? formatGemma4Members(value, returned) : `value:${formatGemma4Value(resultText(result), returned)}`;
  return `<|tool_response>response:${result.toolName ?? 'unknown'}{${members}}<tool_response|>`;
}

const ownEnvelopeFirst = [...gemmaFamily.envelopes].sort(
  (left, right) => Number(!left.start.includes('<|tool_call>')) - Number(!right.start.includes('<|tool_call>')),
);

export const gemma4Family: FamilySpec = {
  ...gemmaFamily,
  family,
  envelopes: ownEnvelopeFirst.map((envelope) => ({ ...envelope, family })),
  prompt: { introduction: '', renderToolList: renderGemma4Declarations, callInstructions: '' },
  renderCall: renderGemma4Call,
  renderCalls: (calls) => calls.map(renderGemma4Call).join(''),
  renderResults: (results) => results.map(renderGemma4Result).join(''),
  resultsInCallTurn: true,
};
