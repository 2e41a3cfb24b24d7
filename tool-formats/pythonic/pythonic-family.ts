/** The pythonic family (Llama 3.2/4 pythonic, LFM2, ToolACE): [get_weather(city="Paris"), get_time()]. */
// Bare, or inside <|python_start|>…<|python_end|> or LFM2's <|tool_call_start|>…<|tool_call_end|>.
// The prompt follows Meta's Llama 3.2 pythonic system prompt.
// @see https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_2/
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers, formatJson } from '../shared/format-json.js';
import { formatPythonCall } from '../shared/format-python-call.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { pythonicCallGrammar } from '../shared/pythonic-call-grammar.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';

const family = 'pythonic';
// LFM2 with JSON tools writes JSON inside its markers, so JSON is the second grammar.
const grammars = [pythonicCallGrammar, jsonCallGrammar];

export const pythonicFamily: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, '<|python_start|>', '<|python_end|>', grammars),
    taggedEnvelope(family, '<|tool_call_start|>', '<|tool_call_end|>', grammars),
  ],
  bareGrammars: [pythonicCallGrammar],
  prompt: {
    introduction: [
      'You are an expert in composing functions. You are given a question and a set of possible functions.',
      'Based on the question, you will need to make one or more function/tool calls to achieve the purpose.',
      'If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.',
      '',
      'If you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]',
      'You SHOULD NOT include any other text in the response when you call functions.',
      '',
      'Here is a list of functions in JSON format that you can invoke.',
    ].join('\n'),
    renderToolList: (tools) => `[\n${tools.map((tool) => `    ${formatJson(toolSignature(tool))}`).join(',\n')}\n]`,
    callInstructions:
      'Write argument values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts. Name every argument (params_name=value).',
    resultInstructions:
      'Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}.',
  },
  renderCall: (call) => `[${formatPythonCall(call.name, argumentsAsMembers(call.arguments))}]`,
  // Parallel calls share one list, as the prompt's format shows.
  renderCalls: (calls) => `[${calls.map((call) => formatPythonCall(call.name, argumentsAsMembers(call.arguments))).join(', ')}]`,
  renderResults: jsonResultLines,
};
