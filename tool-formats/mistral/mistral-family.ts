/** The mistral family (Mistral 7B v0.3, Nemo, Mixtral, Codestral): calls after `[TOOL_CALLS]`. */
// Read: `[TOOL_CALLS][{"name", "arguments", "id"?}, …]`, `[TOOL_CALLS]NAME{…}`, `[TOOL_CALLS]NAME[ARGS]{…}` and
// `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`, `[TOOL_CALLS]` repeated for several calls; the end of the reply
// closes the envelope, and text may follow the JSON. Magistral reasons in `[THINK]…[/THINK]`.
// Written: the v0.3 JSON array with 9-alphanumeric ids, the tool list as `[AVAILABLE_TOOLS]` before the last
// user turn and results as `[TOOL_RESULTS] {"content", "call_id"}[/TOOL_RESULTS]` in the model's turn after
// its calls, as the Mistral chat templates print them. The models trained on tokenizer v7, v11 and v13 (Small
// 3.1, Devstral Small 2505; Small 3.2, Magistral, Devstral 1.1+, Ministral 3, Large 3) are families mistral-v7,
// mistral-v11 and mistral-v13, which keep this parser and write their own history (mistral-tekken-family.ts).
// @see https://github.com/vllm-project/vllm/blob/main/examples/tool_chat_template_mistral3.jinja
import type { ToolCallPart, ToolResultPart } from '../../src/core/index.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { toolAsFunction } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';
import { mistralCallId } from './mistral-call-id.js';
import { mistralCallsScanning } from './mistral-calls-scanner.js';
import { mistralNamedCallGrammar } from './mistral-named-call-grammar.js';
import { mistralResidue } from './mistral-residue.js';
import { mistralToolPromptPlacement } from './mistral-tool-prompt-placement.js';

const family = 'mistral';
const toolCallsMarker = '[TOOL_CALLS]';

/** One element of the call array; `id` only when the call has one (prompt examples have none). */
function callObject(call: Pick<ToolCallPart, 'name' | 'arguments'> & { id?: string }): Record<string, unknown> {
  const object: Record<string, unknown> = { name: call.name, arguments: argumentsForRendering(call.arguments) };
  if (call.id !== undefined) object['id'] = mistralCallId(call.id);
  return object;
}

export const mistralFamily: FamilySpec = {
  family,
  // Control tokens of the Tekken tokenizer (mistral-common's SpecialTokens); vLLM's mistral parser turns
  // skip_special_tokens off for them, and llama.cpp preserves `[TOOL_CALLS]`, `[ARGS]` and `[CALL_ID]`.
  specialTokens: ['[TOOL_CALLS]', '[ARGS]', '[CALL_ID]', '[THINK]', '[/THINK]'],
  // The end of sequence; only this family's parser drops it (in other replies it may be HTML).
  familyFramingTokens: ['</s>'],
  envelopes: [
    {
      family,
      start: [toolCallsMarker],
      end: [],
      kind: 'explicit',
      body: { type: 'custom', createScanner: mistralCallsScanning() },
      endsAtReplyEnd: true,
      grammars: [jsonCallGrammar, mistralNamedCallGrammar],
    },
  ],
  reasoningTags: [{ open: '[THINK]', close: '[/THINK]' }],
  strippedResidue: mistralResidue,
  // The template's own words and list, placed where it puts them (`mistralToolPromptPlacement`): the list
  // first, so that it is the prompt's first paragraph.
  prompt: {
    introduction: '',
    renderToolList: (tools) => `[AVAILABLE_TOOLS] [${tools.map((tool) => formatJson(toolAsFunction(tool))).join(', ')}][/AVAILABLE_TOOLS]`,
    callInstructions:
      'You are a helpful assistant that can call tools. If you call one or more tools, format them in a single JSON array or objects, where each object is a tool call, not as separate objects outside of an array or multiple arrays. Use the format [{"name": tool call name, "arguments": tool call arguments}, additional tool calls] if you call more than one tool. If you call tools, do not attempt to interpret them or otherwise provide a response until you receive a tool call result that you can interpret for the user.',
  },
  placeToolPrompt: mistralToolPromptPlacement('last'),
  renderCall: (call) => toolCallsMarker + formatJson([callObject(call)]),
  // Parallel calls share one array, as the template writes them.
  renderCalls: (calls) => toolCallsMarker + formatJson(calls.map(callObject)),
  // The template prints the content as it came (`content|string`): JSON output stays JSON, other text
  // is quoted so that the object stays JSON. Results sit in the model's turn, after its calls.
  renderResults: (results) =>
    results
      .map(
        (result) => `[TOOL_RESULTS] {"content": ${resultContent(result)}, "call_id": "${mistralCallId(result.toolCallId)}"}[/TOOL_RESULTS]`,
      )
      .join(''),
  resultsInCallTurn: true,
};

function resultContent(result: ToolResultPart): string {
  const output = result.isError === true ? undefined : argumentsForRendering(result.output);
  return output !== undefined && typeof output !== 'string' ? formatJson(output) : JSON.stringify(resultText(result));
}
