/** The functools family (Phi-4-mini, FireFunction v2): one JSON list of calls after the `functools` marker. */
// Read: `functools[{"name", "arguments"}, …]` (FireFunction writes a space before the marker, Phi-4-mini may
// write "parameters"), the list ending at its `]` or, cut short, at the end of the reply; Phi-4-mini's
// Hugging Face template form `<|tool_call|>{…}<|/tool_call|>` too.
// Written: the list, as both models' templates print earlier calls; the prompt is the system-prompt suffix
// the two templates share (vLLM's Phi-4-mini template copies FireFunction's).
// @see https://github.com/vllm-project/vllm/blob/main/examples/tool_chat_template_phi4_mini.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/fireworks-ai-llama-3-firefunction-v2.jinja
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/phi4mini_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { createFunctoolsListScanner } from './functools-list-scanner.js';
import { renderIndentedFunctions } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';

const family = 'functools';
/** The marker and the list's opening bracket: the bare word `functools` (Python's module) is prose. */
export const functoolsStart = 'functools[';
const listEnd = ']';

function callObject(call: Pick<ToolCallPart, 'name' | 'arguments'>): Record<string, unknown> {
  return { name: call.name, arguments: argumentsForRendering(call.arguments) };
}

export const functoolsFamily: FamilySpec = {
  family,
  envelopes: [
    {
      family,
      start: [functoolsStart],
      end: [],
      kind: 'explicit',
      // "No closing marker required" (the prompt's words): the end of the reply closes the list too.
      body: { type: 'custom', createScanner: createFunctoolsListScanner },
      endsAtReplyEnd: true,
      grammars: [jsonCallGrammar],
    },
    // Phi-4-mini's own template; Hermes registers `<|tool_call|>` with the same JSON body.
    taggedEnvelope(family, '<|tool_call|>', '<|/tool_call|>', [jsonCallGrammar]),
  ],
  bareGrammars: [jsonCallGrammar],
  // Not llama.cpp's Phi-4-mini template (its own `<|tool|>` / `<|tool_call|>` adaptation, which the
  // fidelity measure renders): the family follows vLLM's Phi-4-mini template and parser, which expect
  // functools lists, as FireFunction v2's does. See docs/prompt-fidelity.md.
  prompt: {
    introduction: 'In addition to plain text responses, you can choose to call one or more of the provided functions.',
    renderToolList: (tools) =>
      [
        'Use the following rule to decide when to call a function:',
        '  * if the response can be generated from your internal knowledge (e.g., as in the case of queries like "What is the capital of Poland?"), do so',
        '  * if you need external information that can be obtained by calling one or more of the provided functions, generate a function calls',
        '',
        'Available functions as JSON spec:',
        renderIndentedFunctions(tools),
      ].join('\n'),
    callInstructions: [
      'If you decide to call functions:',
      '  * prefix function calls with functools marker (no closing marker required)',
      '  * all function calls should be generated in a single JSON list formatted as functools[{"name": [function name], "arguments": [function arguments as JSON]}, ...]',
      '  * follow the provided JSON schema. Do not hallucinate arguments or values. Do not blindly copy values from the provided samples',
      '  * respect the argument type formatting. E.g., if the type is number and format is float, write value 7 as 7.0',
      '  * make sure you pick the right functions that match the user intent',
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the user turns after your calls, one per call, as JSON objects: {"name": function name, "output": result}.',
  },
  renderCall: (call) => `${functoolsStart}${formatJson(callObject(call))}${listEnd}`,
  // One list for the turn's calls, as the templates join them.
  renderCalls: (calls) => `${functoolsStart}${calls.map((call) => formatJson(callObject(call))).join(', ')}${listEnd}`,
  // Every template these models have writes each result in a turn of its own (vLLM's Phi-4-mini template a
  // `<|tool|>` turn, llama.cpp's a `<|tool_response|>` one, FireFunction's a `tool` turn).
  turnPerResult: true,
  renderResults: jsonResultLines,
};
