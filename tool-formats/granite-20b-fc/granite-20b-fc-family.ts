/** The granite-20b-fc family (IBM Granite-20B-FunctionCalling): `<function_call> {…}` calls, one after another, unclosed. */
// Each call is `<function_call>` and a JSON object; the next `<function_call>` or the end of the reply ends
// it (vLLM's granite-20b-fc parser). Llama's `<function_call>…</function_call>` tags use the same marker,
// registered here the same way: the tagged scan closes a complete body at a repeated start marker, and a
// complete body at the end of the reply is a call, so both forms read alike in every family.
// Results go back as the template's `<function_response>` lines.
// Where vLLM's granite-20b-fc tests differ on purpose: they send no tools and still get calls; here only
// offered names become calls (the roster rule), and a one-call list after the marker is read too.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/granite_20b_fc_tool_parser.py
// @see https://github.com/vllm-project/vllm/blob/main/examples/tool_chat_template_granite_20b_fc.jinja
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { jsonCallObject } from '../shared/json-call-text.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';

const family = 'granite-20b-fc';
const functionCall = '<function_call>';

export const granite20bFcFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, functionCall, '</function_call>', [jsonCallGrammar])],
  prompt: {
    introduction:
      'You are a helpful assistant with access to the following function calls. Your task is to understand the given conversation with function calls and responses and generate natural language response as the ASSISTANT to continue the conversation. You may use the following function calls to understand how to respond to the user query.',
    renderToolList: (tools) => `<|function_call_library|>\n${tools.map((tool) => formatJson(toolSignature(tool))).join('\n')}`,
    // The template asks for a `no_function` call when nothing fits; that name is no offered tool and would
    // be reported as a rejected call, so a plain answer is asked for instead.
    callInstructions: `To call a function, write ${functionCall} followed by one JSON object with its name and arguments:\n${functionCall} {"name": <function-name>, "arguments": <args-json-object>}\nWrite one ${functionCall} per call. If none of the functions are relevant, answer in plain text.`,
    resultInstructions: 'Function results come back to you in the next user turn, each after <function_response>.',
  },
  renderCall: (call) => `${functionCall} ${formatJson(jsonCallObject(call))}`,
  renderResults: (results) => results.map((result) => `<function_response> ${resultText(result)}`).join('\n'),
};
