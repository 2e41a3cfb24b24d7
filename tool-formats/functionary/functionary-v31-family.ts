/** The functionary-v31 family (MeetKai Functionary v3.1, on Llama 3.1): `<function=NAME>{json}</function>` calls. */
// Read: the same envelope and body as llama3's `<function=` (the registrations merge), one call per tag,
// several tags for several calls; the code interpreter's `<|python_tag|>` is llama3's too.
// Written: as the template prints earlier calls, one tag after another; the prompt is the template's
// system block, and results are its ipython turns.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/meetkai-functionary-medium-v3.1.jinja
import { functionTagGrammar } from '../shared/function-tag-grammar.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';

const family = 'functionary-v31';

export const functionaryV31Family: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, '<function=', '</function>', [functionTagGrammar], { headerEnd: '>' })],
  prompt: {
    introduction: 'You have access to the following functions:',
    renderToolList: (tools) =>
      tools
        .map((tool) => `Use the function '${tool.name}' to '${tool.description ?? ''}'\n${formatJson(toolSignature(tool))}`)
        .join('\n\n'),
    callInstructions: [
      'Think very carefully before calling functions.',
      'If a you choose to call a function ONLY reply in the following format:',
      '<{start_tag}={function_name}>{parameters}{end_tag}',
      'where',
      '',
      'start_tag => `<function`',
      'parameters => a JSON dict with the function argument name as key and function argument value as value.',
      'end_tag => `</function>`',
      '',
      'Here is an example,',
      '<function=example_function_name>{"example_name": "example_value"}</function>',
      '',
      'Reminder:',
      '- Function calls MUST follow the specified format, start with <function= and end with </function>',
      '- Required parameters MUST be specified',
      '- Put the entire function call reply on one line',
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}.',
  },
  renderCall: (call) => `<function=${call.name}>${formatJson(argumentsForRendering(call.arguments))}</function>`,
  // The template writes a turn's calls one after another, without a separator.
  renderCalls: (calls) =>
    calls.map((call) => `<function=${call.name}>${formatJson(argumentsForRendering(call.arguments))}</function>`).join(''),
  renderResults: jsonResultLines,
};
