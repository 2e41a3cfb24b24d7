/** Hy3's calls inside `<tool_calls>`: `<tool_call>NAME<tool_sep>` then GLM-style `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs. */
// Each call is closed by `</tool_call>`; values are raw text typed by the tool's schema (vLLM's hy_v3
// parser does the same, with aliases for loose type names). The pairs are GLM's, so GLM's reader reads
// each call once the `<tool_sep>` after the name is a plain separator. Calls are split value-aware: a
// value holding code with `</tool_call>` in it does not end its call.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/hy_v3_tool_parser.py
import { argumentValueClose, argumentValueOpen, glmArgumentPairsGrammar } from '../shared/arg-pairs-grammar.js';
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from '../shared/body-grammar.js';
import type { CandidateCall } from '../shared/call-payload.js';
import { skipSpace } from '../shared/lenient-json.js';

export const hy3CallOpen = '<tool_call>';
export const hy3CallClose = '</tool_call>';
export const hy3Separator = '<tool_sep>';

export const hy3CallGrammar: BodyGrammar = {
  id: 'hy3-calls',
  accepts: (body) => body.startsWith(hy3CallOpen),
  decode: decodeCalls,
};

function decodeCalls(body: string, context: DecodeContext): DecodedBody {
  const calls: CandidateCall[] = [];
  let problem: Extract<DecodedBody, { type: 'invalid' }> = { type: 'invalid', message: 'The tool-call section holds no call' };
  let position = skipSpace(body, 0);
  while (position < body.length) {
    if (!body.startsWith(hy3CallOpen, position)) {
      problem = { type: 'invalid', message: `Unexpected text between calls: ${excerpt(body.slice(position))}` };
      calls.push({ type: 'invalid', message: problem.message });
      break;
    }
    const start = position + hy3CallOpen.length;
    const end = callEnd(body, start);
    const framing = end === undefined ? context.framing : 'closed';
    const decoded = glmArgumentPairsGrammar.decode(body.slice(start, end).replace(hy3Separator, '\n').trim(), { ...context, framing });
    if (decoded.type === 'calls') calls.push(...decoded.calls);
    else {
      problem = decoded;
      calls.push({
        type: 'invalid',
        message:
          framing === 'unclosed' && decoded.incomplete === true ? `The reply ended inside a call: ${decoded.message}` : decoded.message,
      });
    }
    position = end === undefined ? body.length : skipSpace(body, end + hy3CallClose.length);
  }
  return calls.some((call) => call.type === 'call') ? { type: 'calls', calls } : problem;
}

/** The `</tool_call>` closing the call that starts at `from`, outside argument values; undefined if none. */
function callEnd(body: string, from: number): number | undefined {
  let position = from;
  for (;;) {
    const close = body.indexOf(hy3CallClose, position);
    const value = body.indexOf(argumentValueOpen, position);
    if (close < 0) return undefined;
    if (value < 0 || close < value) return close;
    const valueEnd = body.indexOf(argumentValueClose, value + argumentValueOpen.length);
    if (valueEnd < 0) return undefined;
    position = valueEnd + argumentValueClose.length;
  }
}
