/** The history and tool list Mistral's tokenizer v7, v11 and v13 write: calls glued to the text, `[TOOL_RESULTS]` with no JSON. */
// Mistral Small 3.1, Devstral Small 2505 (v7), Small 3.2, Magistral, Devstral (Small 1.1 and 2), Ministral 3
// and Mistral Large 3 were trained on what mistral-common's InstructTokenizerV7 / V11 / V13 encode, which
// their generated chat templates print:
// - tools: `[AVAILABLE_TOOLS]` + the tools as `json.dumps` + `[/AVAILABLE_TOOLS]`, no instructions, before
//   the `[INST]` of the last user message (v7, v11) or of the first (v13);
// - calls: `[TOOL_CALLS][{"name": …, "arguments": {…}, "id": "ID"}, …]` (v7: v3's JSON array, all calls in
//   one), `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` (v11; the id only when the call has one) or
//   `[TOOL_CALLS]NAME[ARGS]{…}` (v13), one `[TOOL_CALLS]` per call, right after the turn's text, then `</s>`;
// - results: `[TOOL_RESULTS]ID[TOOL_CONTENT]output[/TOOL_RESULTS]` (v7, v11) or `[TOOL_RESULTS]output[/TOOL_RESULTS]`
//   (v13), one per result, after the `</s>` that closes the calls, the model's answer following.
// The parser is the mistral family's, which reads these calls and the older JSON array alike.
// Not `templateRendersTools`: the v11 template and mistral-common refuse call ids that are not nine
// alphanumerics, which clients' `call_…` ids are; the gateway derives such ids itself (`mistralCallId`).
// @see https://github.com/mistralai/mistral-common/blob/main/src/mistral_common/tokens/tokenizers/instruct.py
// @see https://github.com/mistralai/mistral-common/blob/main/tests/data/chat_templates/v7.jinja
// @see https://github.com/mistralai/mistral-common/blob/main/tests/data/chat_templates/v11.jinja
// @see https://github.com/mistralai/mistral-common/blob/main/tests/data/chat_templates/v13.jinja
import type { ToolCallPart, ToolResultPart } from '../../src/core/index.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { toolAsFunction } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';
import { mistralCallId } from './mistral-call-id.js';
import { mistralFamily } from './mistral-family.js';
import { mistralToolPromptPlacement } from './mistral-tool-prompt-placement.js';

/** What differs between the tokenizer versions' templates. */
export type MistralTekkenVersion = {
  family: string;
  /** v7 writes the calls as the older families' JSON array (`mistralFamily`'s); v11 and v13 one `NAME[ARGS]{…}` a call. */
  callForm: 'json-array' | 'named';
  /** v7 and v11 write each call's id and each result's (`[TOOL_CONTENT]` after it); v13 writes none. */
  writesCallIds: boolean;
  toolListTurn: 'first' | 'last';
};

type RenderedCall = Pick<ToolCallPart, 'name' | 'arguments'> & { id?: string };

export function mistralTekkenFamily(version: MistralTekkenVersion): FamilySpec {
  const { family, writesCallIds } = version;
  const renderNamedCall = (call: RenderedCall): string => {
    const id = writesCallIds && call.id !== undefined ? `[CALL_ID]${mistralCallId(call.id)}` : '';
    // An argument text that is not JSON is printed as it came, as the template prints a string.
    const value = argumentsForRendering(call.arguments);
    return `[TOOL_CALLS]${call.name}${id}[ARGS]${typeof value === 'string' ? value : formatJson(value)}`;
  };
  const calls: Pick<FamilySpec, 'renderCall' | 'renderCalls'> =
    version.callForm === 'json-array'
      ? { renderCall: mistralFamily.renderCall, renderCalls: mistralFamily.renderCalls }
      : { renderCall: renderNamedCall, renderCalls: (list) => list.map(renderNamedCall).join('') };
  const renderResult = (result: ToolResultPart): string =>
    writesCallIds
      ? `[TOOL_RESULTS]${mistralCallId(result.toolCallId)}[TOOL_CONTENT]${resultText(result)}[/TOOL_RESULTS]`
      : `[TOOL_RESULTS]${resultText(result)}[/TOOL_RESULTS]`;
  return {
    ...mistralFamily,
    family,
    envelopes: mistralFamily.envelopes.map((envelope) => ({ ...envelope, family })),
    prompt: {
      introduction: '',
      renderToolList: (tools) => `[AVAILABLE_TOOLS]${formatJson(tools.map(toolAsFunction))}[/AVAILABLE_TOOLS]`,
      callInstructions: '',
    },
    placeToolPrompt: mistralToolPromptPlacement(version.toolListTurn),
    ...calls,
    renderResults: (results) => results.map(renderResult).join(''),
    resultsInCallTurn: true,
    callTurnEnd: '</s>',
    textBeforeCalls: '',
  };
}
