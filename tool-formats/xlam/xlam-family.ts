/** The xlam family (Salesforce xLAM, xLAM-2): calls as one bare JSON array of `{"name", "arguments"}`. */
// Read: the array bare (a call only when every element has the call shape and one names an offered tool,
// so a JSON answer stays text), in a ```` ```json ```` fence, after `</think>`, after `[TOOL_CALLS]` or in
// `<tool_call>` tags, all of which the shared readers and the mistral and hermes envelopes already know:
// vLLM's xlam parser accepts exactly these. Nothing here is xLAM-only but the prompt.
// Written: the array, as the xLAM templates print earlier calls; results are the template's ipython turns.
// @see https://github.com/vllm-project/vllm/blob/main/examples/tool_chat_template_xlam_llama.jinja
// @see https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/tool_parsers/xlam_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { renderIndentedFunctions } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';

const family = 'xlam';

function callObject(call: Pick<ToolCallPart, 'name' | 'arguments'>): Record<string, unknown> {
  return { name: call.name, arguments: argumentsForRendering(call.arguments) };
}

export const xlamFamily: FamilySpec = {
  family,
  envelopes: [],
  bareGrammars: [jsonCallGrammar],
  prompt: {
    introduction: [
      'You have access to a set of tools. When using tools, make calls in a single JSON array: ',
      '',
      '[{"name": "tool_call_name", "arguments": {"arg1": "value1", "arg2": "value2"}}, ... (additional parallel tool calls as needed)]',
      '',
      "If no tool is suitable, state that explicitly. If the user's input lacks required parameters, ask for clarification. Do not interpret or respond until tool results are returned. Once they are available, process them or make additional calls if needed. For tasks that don't require tools, such as casual conversation or general advice, respond directly in plain text. The available tools are:",
    ].join('\n'),
    renderToolList: renderIndentedFunctions,
    callInstructions: 'Write the JSON array alone, with nothing before or after it, when you call tools.',
    resultInstructions: 'Tool results come back to you in the next user turn as JSON objects: {"name": tool name, "output": result}.',
  },
  renderCall: (call) => formatJson([callObject(call)]),
  renderCalls: (calls) => formatJson(calls.map(callObject)),
  renderResults: jsonResultLines,
};
