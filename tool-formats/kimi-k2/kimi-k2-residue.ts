/** What Kimi K2's call markup leaves when a server strips its special tokens: `functions.NAME:IDX{…}`. */
// `<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{…}
// <|tool_call_end|><|tool_calls_section_end|>` are special tokens but for the call id, so only
// `functions.get_weather:0{…}` arrives; a call id glued to a JSON object is no prose. The call's tokens
// are put back around it when NAME is an offered tool; otherwise the text stays, and the reply is reported.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/kimi_k2_tool_parser.py (adjust_request)
import { more, readObjectOpening } from '../shared/residue-reading.js';
import type { StrippedResidue } from '../shared/stripped-residue.js';
import { toolCallArgumentBegin, toolCallBegin, toolCallEnd } from './kimi-k2-tokens.js';

const callId = /functions\.([^\s:{}<>"'`]{1,128}):(\d{1,6})\{/y;
/** Text that may still become a call id followed by `{`. */
const callIdPrefix = /functions\.[^\s:{}<>"'`]{0,128}(?::\d{0,6})?$/y;

export const kimiK2Residue: StrippedResidue = {
  triggers: ['functions.'],
  read(text, from, { roster }) {
    callId.lastIndex = from;
    const match = callId.exec(text);
    if (match === null) {
      callIdPrefix.lastIndex = from;
      return callIdPrefix.test(text) ? { type: 'more' } : { type: 'none' };
    }
    const [whole, name = '', index = ''] = match;
    const length = whole.length - 1;
    const object = readObjectOpening(text, from + length);
    if (object < 0) return object === more ? { type: 'more' } : { type: 'none' };
    const evidence = text.slice(from, from + whole.length);
    if (roster.resolve(name) === undefined) return { type: 'residue', length, evidence };
    return {
      type: 'residue',
      length,
      evidence,
      restored: `${toolCallBegin}functions.${name}:${index}${toolCallArgumentBegin}`,
      afterValue: toolCallEnd,
    };
  },
};
