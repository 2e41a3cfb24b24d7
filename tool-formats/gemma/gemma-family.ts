/** The gemma family (Gemma 2/3 tool_code, Gemma 4, FunctionGemma): ```` ```tool_code ```` fences and `call:NAME{…}`. */
// Gemma 2/3 have no tool tokens; Google's recipes have them write Python calls in a ```tool_code
// fence and read results from a ```tool_output fence, which is what the prompt asks for. The parser
// also takes JSON in that fence, Gemma 4's `<|tool_call>call:NAME{key:<|"|>text<|"|>}<tool_call|>`
// (and its `<|channel>thought…<channel|>` reasoning), and FunctionGemma's
// `<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>`.
// @see https://ai.google.dev/gemma/docs/capabilities/function-calling
// @see https://ai.google.dev/gemma/docs/core/prompt-formatting-gemma4
import type { ToolCallPart } from '../../src/core/index.js';
import { fencedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers } from '../shared/format-json.js';
import { formatPythonCall } from '../shared/format-python-call.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { pythonicCallGrammar } from '../shared/pythonic-call-grammar.js';
import { fencedResults } from '../shared/tool-result-text.js';
import { delimitedCallGrammar } from './delimited-call-grammar.js';
import { delimitedStringScanning } from './delimited-string-scanner.js';
import { renderPythonStubs } from './python-signature.js';
import { toolCodeGrammar } from './tool-code-grammar.js';

const family = 'gemma';

/**
 * One call as Python source. A run of three backticks can only sit inside a string literal there;
 * it is written with `\x60` escapes so that no fence reader, ours or a client's, sees the block close.
 */
function renderPythonCall(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return formatPythonCall(call.name, argumentsAsMembers(call.arguments)).replace(/`{3,}/g, (run) => '\\x60'.repeat(run.length));
}

function toolCodeBlock(lines: readonly string[]): string {
  return '```tool_code\n' + lines.join('\n') + '\n```';
}

export const gemmaFamily: FamilySpec = {
  family,
  envelopes: [
    // The body is code from its first character, so a ``` inside a Python string does not close it.
    fencedEnvelope(family, ['tool_code'], 'explicit', [toolCodeGrammar, jsonCallGrammar], { code: true }),
    {
      family,
      start: ['<|tool_call>'],
      // Some Gemma 4 builds end the call with <turn|> instead of <tool_call|> (vLLM accepts both).
      end: ['<tool_call|>', '<turn|>'],
      kind: 'explicit',
      body: { type: 'custom', createScanner: delimitedStringScanning('<|"|>') },
      grammars: [delimitedCallGrammar('gemma4-call', '<|"|>')],
    },
    {
      family,
      start: ['<start_function_call>'],
      end: ['<end_function_call>'],
      kind: 'explicit',
      body: { type: 'custom', createScanner: delimitedStringScanning('<escape>') },
      grammars: [delimitedCallGrammar('functiongemma-call', '<escape>')],
    },
  ],
  // Google's other Gemma 3 prompt asks for a bare `[f(a=1)]` list or a JSON object.
  bareGrammars: [pythonicCallGrammar, jsonCallGrammar],
  reasoningTags: [{ open: '<|channel>thought', close: '<channel|>' }],
  // Turn tokens that leak when a server returns special tokens; <|tool_response> and
  // <start_function_response> are where Gemma 4 and FunctionGemma stop to wait for a result.
  framingTokens: ['<end_of_turn>', '<|turn>model', '<turn|>', '<|tool_response>', '<start_function_response>'],
  prompt: {
    introduction: 'You have access to the Python functions below. They are already imported; use only these.',
    renderToolList: renderPythonStubs,
    callInstructions: [
      'To call functions, reply with a tool_code block holding one call per line, with keyword arguments and Python literal values (strings in quotes, numbers, True, False, None, lists and dicts):',
      toolCodeBlock(['function_name(argument_name="value")']),
      'When no function is needed, answer in plain text. Never write a tool_output block yourself.',
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the next user turn, each in a tool_output block holding {"name": function name, "output": result}. Use them to call more functions or to answer.',
  },
  renderCall: (call) => toolCodeBlock([renderPythonCall(call)]),
  // Parallel calls share one block, one call per line, as the prompt asks.
  renderCalls: (calls) => toolCodeBlock(calls.map(renderPythonCall)),
  renderResults: fencedResults('tool_output'),
};
