/** The olmo3 family (Ai2 OLMo 3 Instruct / Think): Python calls, one per line, inside `<function_calls>`. */
// Read: `<function_calls>\nget_weather(city="Paris")\nget_time()\n</function_calls>` with the shared
// Python reader (which also takes the JSON `true`/`false`/`null` OLMo writes, as vLLM's olmo3 parser
// does); `<think>` reasoning (OLMo 3 Think). Written: the same block, the tools as the JSON list the
// template puts inside `<functions></functions>`, results as JSON lines in a user turn (the template
// gives them an `environment` turn of their own, which a user turn cannot open).
// Where vLLM's olmo3 tests differ on purpose: a bytes argument (`b'z'`) is read as the text it spells
// (vLLM drops that call); a bad call beside good ones loses only itself, as there
// (test/tool-formats/olmo3/olmo3-peer-cases.test.ts).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/olmo3_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers, formatJson } from '../shared/format-json.js';
import { formatPythonCall } from '../shared/format-python-call.js';
import { pythonicCallGrammar } from '../shared/pythonic-call-grammar.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';

const family = 'olmo3';
const functionCallsOpen = '<function_calls>';
const functionCallsClose = '</function_calls>';

const pythonLine = (call: Pick<ToolCallPart, 'name' | 'arguments'>) => formatPythonCall(call.name, argumentsAsMembers(call.arguments));

export const olmo3Family: FamilySpec = {
  family,
  // `code`: a string argument may hold `</function_calls>`.
  envelopes: [taggedEnvelope(family, functionCallsOpen, functionCallsClose, [pythonicCallGrammar], { code: true })],
  prompt: {
    introduction:
      'You are provided with function signatures within <functions></functions> XML tags. You may call one or more functions to assist with the user query. Output any function calls within <function_calls></function_calls> XML tags. Do not make assumptions about what values to plug into functions.',
    renderToolList: (tools) => `<functions>${formatJson(tools.map(toolSignature))}</functions>`,
    callInstructions: [
      'Write each call as a Python function call with keyword arguments, one call per line:',
      functionCallsOpen,
      'function_name(parameter_1="value", parameter_2=3)',
      functionCallsClose,
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}. When no function is needed, answer directly.',
  },
  renderCall: (call) => `${functionCallsOpen}\n${pythonLine(call)}\n${functionCallsClose}`,
  // One block for the turn's calls, one per line, as the template writes them.
  renderCalls: (calls) => `${functionCallsOpen}\n${calls.map(pythonLine).join('\n')}\n${functionCallsClose}`,
  renderResults: jsonResultLines,
};
