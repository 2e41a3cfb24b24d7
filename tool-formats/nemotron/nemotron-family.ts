/** The nemotron family (NVIDIA Nemotron Nano v2, Llama-Nemotron Super/Nano): `<TOOLCALL>[{"name","arguments"}]</TOOLCALL>`. */
// Read: one JSON array of calls between `<TOOLCALL>` and `</TOOLCALL>`, `<think>` reasoning (both
// lines reason there). Nemotron-3-Nano writes Qwen3-Coder's syntax and stays in that family.
// Written: the templates' own layout; results as the `<TOOL_RESPONSE>[…]</TOOL_RESPONSE>` list the
// templates write tool messages into.
// Where vLLM's nemotron_json tests differ on purpose: a `<TOOLCALL>` that yields no call is reported, not
// returned as content, and closers missing before `</TOOLCALL>` are repaired (test_extract_tool_calls_returns_original_for_malformed).
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/NVIDIA-Nemotron-Nano-v2.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';

const family = 'nemotron';
const toolCallOpen = '<TOOLCALL>';
const toolCallClose = '</TOOLCALL>';

const callObject = (call: Pick<ToolCallPart, 'name' | 'arguments'>) => ({
  name: call.name,
  arguments: argumentsForRendering(call.arguments),
});

export const nemotronFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, toolCallOpen, toolCallClose, [jsonCallGrammar])],
  prompt: {
    introduction: 'You can use the following tools to assist the user if required:',
    renderToolList: (tools) => `<AVAILABLE_TOOLS>[${tools.map((tool) => formatJson(toolSignature(tool))).join(', ')}]</AVAILABLE_TOOLS>`,
    callInstructions: [
      'If you decide to call any tool(s), use the following format:',
      '<TOOLCALL>[{"name": "tool_name1", "arguments": "tool_args1"}, {"name": "tool_name2", "arguments": "tool_args2"}]</TOOLCALL>',
    ].join('\n'),
    resultInstructions: [
      'The user will execute tool-calls and return responses from tool(s) in this format:',
      '<TOOL_RESPONSE>[{"tool_response1"}, {"tool_response2"}]</TOOL_RESPONSE>',
      '',
      'Based on the tool responses, you can call additional tools if needed, correct tool calls if any errors are found, or just respond to the user.',
    ].join('\n'),
  },
  renderCall: (call) => `${toolCallOpen}${formatJson([callObject(call)])}${toolCallClose}`,
  // Parallel calls share one array, as the templates write them.
  renderCalls: (calls) => `${toolCallOpen}${formatJson(calls.map(callObject))}${toolCallClose}`,
  // The templates join the tool messages' contents, as they are, into one list.
  renderResults: (results) => `<TOOL_RESPONSE>[${results.map(resultText).join(', ')}]</TOOL_RESPONSE>`,
};
