/** The functionary-v32 family (MeetKai Functionary v3.2): `>>>NAME\n{json}` calls and `>>>all\n` text. */
// Read: each message starts with a recipient line after `>>>`: a tool name, then its JSON arguments; or
// `all`, then text for the user. The template ends its generation prompt with `>>>`, so the reply's first
// recipient comes without it: this family's own parser reads the reply as following a `>>>`. A `>>>`
// followed by anything else (a Python prompt, a quote) is text, in every family.
// Written: the template's recipient lines; the prompt is its system block with the tools as a TypeScript
// namespace (the rendering Harmony shares); results are its tool turns.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/meetkai-functionary-medium-v3.2.jinja
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/chat-parsers/functionary-v3-2.cpp
import type { ToolCallPart } from '../../src/core/index.js';
import { renderFunctionsNamespace } from '../shared/typescript-namespace.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonResultLines } from '../shared/tool-result-text.js';
import { recipientCallGrammar } from './recipient-call-grammar.js';
import { createRecipientScanner, recipientMarker } from './recipient-scanner.js';

const family = 'functionary-v32';

function renderRecipientCall(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return `${recipientMarker}${call.name}\n${formatJson(argumentsForRendering(call.arguments))}`;
}

export const functionaryV32Family: FamilySpec = {
  family,
  envelopes: [
    {
      family,
      start: [recipientMarker],
      end: [],
      kind: 'explicit',
      body: { type: 'custom', createScanner: createRecipientScanner },
      grammars: [recipientCallGrammar],
    },
  ],
  replyStartsInside: recipientMarker,
  prompt: {
    introduction: [
      'You are capable of executing available function(s) if required.',
      'Only execute function(s) when absolutely necessary.',
      'Ask for the required input to:recipient==all',
      'Use JSON for function arguments.',
      'Respond in this format:',
      '>>>${recipient}',
      '${content}',
    ].join('\n'),
    renderToolList: (tools) =>
      `Available functions:\n// Supported function definitions that should be called when necessary.\n${renderFunctionsNamespace(tools).replace(/^## functions\n\n/, '')}`,
    callInstructions:
      'Write >>>all and a new line before text for the user; write >>> with the function name and a new line before the JSON arguments of each call.',
    resultInstructions:
      'Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}.',
  },
  renderCall: renderRecipientCall,
  renderCalls: (calls) => calls.map(renderRecipientCall).join(''),
  renderResults: jsonResultLines,
};
