/** MiniMax-M1's `<tool_calls>` body read call by call: one unreadable or nameless line does not lose the others. */
// The template asks for one `{"name", "arguments"}` object per line. vLLM's minimax parser reads each
// line on its own and drops the ones it cannot read, keeping the rest (its tests
// `test_extract_tool_calls_invalid_json` and `test_extract_tool_calls_missing_name_or_arguments`).
// Here the good calls come through and each bad one is reported (`tool-call-rejected`), never text. A
// call may still span lines (vLLM refuses that; the JSON reader does not need the line breaks): after
// an unreadable value, reading resumes at the next line that opens an object.
// @see https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_minimax_tool_parser.py
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from '../shared/body-grammar.js';
import { normalizeCallPayload, type CandidateCall } from '../shared/call-payload.js';
import { decodeJsonCalls } from '../shared/json-call-grammar.js';
import { readLenientJson, skipSpace } from '../shared/lenient-json.js';

/** A line (after optional indentation) that opens an object: where reading resumes after a bad value. */
const nextObjectLine = /\n[ \t]*\{/g;

export const minimaxCallLinesGrammar: BodyGrammar = {
  id: 'minimax-call-lines',
  accepts: (body) => body.startsWith('{'),
  decode: decodeCallLines,
};

function decodeCallLines(body: string, context: DecodeContext): DecodedBody {
  // Most lists are all good: the JSON grammar reads them as it reads every family's (and fast).
  const whole = decodeJsonCalls(body, context);
  if (whole.type === 'calls') return whole;
  const calls: CandidateCall[] = [];
  let problem: Extract<DecodedBody, { type: 'invalid' }> = { type: 'invalid', message: 'The tool-call list holds no call' };
  let position = 0;
  while (position < body.length) {
    if (body[position] !== '{' && body[position] !== '[') {
      // Text between or after the calls (a stray brace, a sentence) is no call, as in the JSON grammar.
      position = nextLineObject(body, position);
      if (position < 0) break;
      continue;
    }
    const read = readLenientJson(body, position, { closeOpenBrackets: context.framing === 'closed' });
    if (read.type === 'error') {
      const resume = nextLineObject(body, position);
      // A value the reply ended inside is cut off, not malformed: it must never surface as a call.
      const cutOff = resume < 0 && read.incomplete && context.framing === 'unclosed';
      const line = excerpt(body.slice(position, resume < 0 ? undefined : resume), 40);
      const message = cutOff ? `The reply ended inside a call: ${read.message}` : `Unreadable call ${line}: ${read.message}`;
      problem = { type: 'invalid', message, incomplete: cutOff };
      calls.push({ type: 'invalid', message });
      if (resume < 0) break;
      position = resume;
      continue;
    }
    const normalized = normalizeCallPayload(read.value, context.framing === 'bare' ? 'exact' : 'lenient');
    const notCall = `The JSON is not a tool call (no "name"): ${excerpt(body.slice(position, read.end), 40)}`;
    calls.push(...(normalized ?? [{ type: 'invalid' as const, message: notCall }]));
    position = skipSeparators(body, read.end);
  }
  return calls.some((call) => call.type === 'call') ? { type: 'calls', calls } : problem;
}

/** Where the next line opening an object starts (its `{`), or -1. */
function nextLineObject(body: string, from: number): number {
  nextObjectLine.lastIndex = from;
  const match = nextObjectLine.exec(body);
  return match === null ? -1 : match.index + match[0].length - 1;
}

/** Whitespace, and the `,` or `;` some replies put between calls. */
function skipSeparators(body: string, from: number): number {
  let position = skipSpace(body, from);
  while (body[position] === ';' || body[position] === ',') position = skipSpace(body, position + 1);
  return position;
}
