/** The gigachat family (Sber GigaChat 3 and 3.1): one JSON call after `function call<|role_sep|>` or `<|function_call|>`. */
// GigaChat 3 ends the assistant message with `<|message_sep|>` and opens a `function call` role whose
// content is `{"name": …, "arguments": {…}}`; GigaChat 3.1 writes `<|function_call|>{…}` instead. The
// JSON ends the call (the reply usually ends there too, or at `</s>`). One call per message, as the
// template renders only the first of an assistant turn's calls; several are read one after another.
// Written: the GigaChat 3 form; tools as the template's TypeScript `namespace functions`.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/gigachat3_tool_parser.py
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/GigaChat3-10B-A1.8B.jinja
import type { Envelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { jsonResultLines } from '../shared/tool-result-text.js';
import { renderFunctionType } from '../shared/typescript-namespace.js';

const family = 'gigachat';
const messageSeparator = '<|message_sep|>';
export const functionCallRole = 'function call<|role_sep|>';
export const functionCallToken = '<|function_call|>';

const callEnvelope = (start: string): Envelope => ({
  family,
  start: [start],
  end: ['</s>', messageSeparator],
  kind: 'explicit',
  body: { type: 'values', separator: ';' },
  endsAtReplyEnd: true,
  grammars: [jsonCallGrammar],
});

export const gigachatFamily: FamilySpec = {
  family,
  envelopes: [callEnvelope(functionCallRole), callEnvelope(functionCallToken)],
  // The separator ending the assistant's text before its `function call` role.
  framingTokens: [messageSeparator],
  prompt: {
    introduction: [
      '`function descriptions`',
      "Function descriptions in TypeScript format. A function is a special tool (or a set of instructions) that the assistant can call to perform specific actions, computations, or obtain data needed to solve the user's task.",
    ].join('\n'),
    renderToolList: (tools) => `namespace functions {\n${tools.map(renderFunctionType).join('\n')}\n} // namespace functions`,
    callInstructions: [
      '`function call`',
      'The function that `assistant` calls based on the dialog context, and its arguments. To call a function, end your message and write:',
      `${functionCallRole}`,
      '{"name": "function_name", "arguments": {"argument": "value"}}',
      '',
      'Only call those functions that are described in `function descriptions`. Fill in function arguments using information from the dialog context. If a required argument is missing from the context, ask the user for the missing data before calling the function.',
    ].join('\n'),
    resultInstructions:
      '`function result`\nThe results of your function calls come back to you in the next user turn as JSON objects: {"name": function name, "output": result}.',
  },
  renderCall: (call) => `${functionCallRole}\n${formatJson({ name: call.name, arguments: argumentsForRendering(call.arguments) })}`,
  renderResults: jsonResultLines,
};
