/** The step-audio-2 family (StepFun Step-Audio 2): `<tool_call>function\nNAME\n{…}</tool_call>`. */
// Read: the call type line (`function`), the name on the next line and the JSON arguments after it,
// inside Hermes' `<tool_call>` tags (one marker scans one way everywhere; this grammar only accepts bodies
// that start with the type line); a `</tool_call>` inside a JSON string of the arguments ends the block
// early, as in vLLM's parser. Written: the same block per call. The wording follows the parser's
// documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/step_audio_2_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { hermesPrompt, hermesResults } from '../shared/hermes-layout.js';
import { excerpt, type BodyGrammar } from '../shared/body-grammar.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { parseLenientJson } from '../shared/lenient-json.js';

const family = 'step-audio-2';
const callOpen = '<tool_call>';
const callClose = '</tool_call>';
/** `function`, the name, then the arguments (which may be left out for a call without any). */
const typedCall = /^function[ \t]*\n[ \t]*([^\s{}[\]<>"']+)[ \t]*(?:\n([\s\S]*))?$/;

export const typedCallGrammar: BodyGrammar = {
  id: 'step-audio-2-typed-call',
  accepts: (body) => /^function[ \t]*\n/.test(body),
  decode(body, { framing }) {
    const match = typedCall.exec(body);
    if (match === null) return { type: 'invalid', message: `Unreadable call: ${excerpt(body)}`, incomplete: framing === 'unclosed' };
    const name = match[1] ?? '';
    const text = (match[2] ?? '').trim();
    if (text === '')
      return framing === 'unclosed'
        ? { type: 'invalid', message: `The call to "${name}" is cut off before its arguments`, incomplete: true }
        : { type: 'calls', calls: [{ type: 'call', name, arguments: {} }] };
    const parsed = parseLenientJson(text);
    if (parsed.type !== 'value')
      return { type: 'invalid', message: `The arguments of "${name}" are no JSON: ${excerpt(text)}`, incomplete: framing === 'unclosed' };
    return { type: 'calls', calls: [{ type: 'call', name, arguments: parsed.value }] };
  },
};

/**
 * The body is no JSON from its start, so the scanner does not know JSON strings in it: a `</` in one is
 * written `<\/` (the same JSON string), so that the call's close tag is the only one in the block.
 */
function renderTypedCall(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return `${callOpen}function\n${call.name}\n${formatJson(argumentsForRendering(call.arguments)).replaceAll('</', '<\\/')}${callClose}`;
}

export const stepAudio2Family: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, callOpen, callClose, [typedCallGrammar])],
  prompt: {
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      `For each function call, write the call type, the function name and its JSON arguments on their own lines within ${callOpen}${callClose} tags:`,
      callOpen + 'function',
      'function_name',
      '{"argument": "value"}' + callClose,
    ].join('\n'),
    resultInstructions: hermesPrompt.resultInstructions,
  },
  renderCall: renderTypedCall,
  renderResults: hermesResults,
};
