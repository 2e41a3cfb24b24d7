/** Gemma 4 and FunctionGemma call bodies: `call:NAME{key:<|"|>text<|"|>,n:3,o:{k:[true,null]}}`. */
// Strings sit between a delimiter token (`<|"|>` for Gemma 4, `<escape>` for FunctionGemma) and hold
// raw text without escapes; keys are bare words; the rest is JSON. Each string becomes a JSON string
// literal, and the lenient JSON reader does the rest (it also takes the JSON-quoted variant some
// servers print, `call:get_weather{"city": "Paris"}`). Several calls in one body are read in turn.
// @see https://ai.google.dev/gemma/docs/functiongemma/formatting-and-best-practices
import type { BodyGrammar, DecodeContext, DecodedBody } from '../shared/body-grammar.js';
import { isPlainObject } from '../shared/call-arguments.js';
import type { CandidateCall } from '../shared/call-payload.js';
import { readLenientJson } from '../shared/lenient-json.js';

/** `call:NAME` (or vLLM's fallback `<call>NAME`) just before the arguments' `{`. */
const callHead = /(?:call:|<call>)?[ \t]*([A-Za-z_][\w.-]*)[ \t]*(?=\{)/y;
const callShape = /^(?:call:|<call>)?[ \t]*[A-Za-z_][\w.-]*[ \t]*\{/;
const separators = /[\s,;]*/y;

export function delimitedCallGrammar(id: string, delimiter: string): BodyGrammar {
  return {
    id,
    accepts: (body) => callShape.test(body),
    decode: (body, context) => decodeDelimitedCalls(body, delimiter, context),
  };
}

function decodeDelimitedCalls(body: string, delimiter: string, context: DecodeContext): DecodedBody {
  const json = quoteDelimitedStrings(body, delimiter);
  if (json === undefined)
    return { type: 'invalid', message: `Unterminated ${delimiter} string`, incomplete: context.framing === 'unclosed' };
  const calls: CandidateCall[] = [];
  let position = 0;
  for (;;) {
    separators.lastIndex = position;
    position += separators.exec(json)?.[0].length ?? 0;
    callHead.lastIndex = position;
    const head = callHead.exec(json);
    // Text after the calls (a stray brace, a sentence) is ignored, as in JSON bodies.
    if (head === null) break;
    const name = head[1] as string;
    const read = readLenientJson(json, position + head[0].length, { closeOpenBrackets: context.framing === 'closed' });
    if (read.type === 'error')
      return { type: 'invalid', message: `Unreadable arguments for "${name}": ${read.message}`, incomplete: read.incomplete };
    if (!isPlainObject(read.value)) return { type: 'invalid', message: `The arguments for "${name}" are not an object` };
    calls.push({ type: 'call', name, arguments: read.value });
    position = read.end;
  }
  if (calls.length === 0) return { type: 'invalid', message: 'No call:NAME{…} in the tool call' };
  return { type: 'calls', calls };
}

/** The body with every delimited string as a JSON string literal; undefined when a string is left open. */
export function quoteDelimitedStrings(body: string, delimiter: string): string | undefined {
  const parts = body.split(delimiter);
  if (parts.length % 2 === 0) return undefined;
  return parts.map((part, index) => (index % 2 === 1 ? JSON.stringify(part) : part)).join('');
}
