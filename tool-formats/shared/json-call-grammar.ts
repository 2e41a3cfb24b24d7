/** The JSON body grammar: one or more call objects (or arrays, or wrappers) read with the lenient reader. */
import type { BodyGrammar, DecodeContext, DecodedBody } from './body-grammar.js';
import { normalizeCallPayload, type CandidateCall } from './call-payload.js';
import { parseLenientJson, readLenientJson, skipSpace } from './lenient-json.js';

/** An object, or an array of objects (possibly empty): the shapes a JSON call list can take. */
const jsonCallShape = /^(?:\{|\[\s*[{\]])/;

export const jsonCallGrammar: BodyGrammar = {
  id: 'json',
  accepts: (body) => jsonCallShape.test(body),
  decode: decodeJsonCalls,
};

export function decodeJsonCalls(body: string, context: DecodeContext): DecodedBody {
  const values = readJsonValues(body, context);
  if (values.type === 'invalid') return values;
  const strictness = context.framing === 'bare' ? 'exact' : 'lenient';
  const calls: CandidateCall[] = [];
  for (const value of values.values) {
    const normalized = normalizeCallPayload(value, strictness);
    if (normalized === undefined) return { type: 'invalid', message: 'The JSON is not a tool call (no "name")' };
    calls.push(...normalized);
  }
  return { type: 'calls', calls };
}

/**
 * Values separated by whitespace, `;` or `,` (Llama's `{…}; {…}`, one object per line). Inside an
 * envelope, text after complete values (a stray `}`, a quote, a sentence) is ignored; bare JSON must
 * be exactly one value.
 */
function readJsonValues(
  body: string,
  context: DecodeContext,
): { type: 'values'; values: unknown[] } | Extract<DecodedBody, { type: 'invalid' }> {
  const whole = parseLenientJson(body, { closeOpenBrackets: context.framing === 'closed' });
  if (whole.type === 'value') return { type: 'values', values: [whole.value] };
  if (context.framing === 'bare') return { type: 'invalid', message: `Unreadable JSON: ${whole.message}`, incomplete: whole.incomplete };
  const values: unknown[] = [];
  let position = 0;
  for (;;) {
    const read = readLenientJson(body, position, { closeOpenBrackets: context.framing === 'closed' });
    if (read.type === 'error') return { type: 'invalid', message: `Unreadable JSON: ${read.message}`, incomplete: read.incomplete };
    values.push(read.value);
    position = skipSeparators(body, read.end);
    const next = body[position];
    if (next !== '{' && next !== '[') return { type: 'values', values };
  }
}

function skipSeparators(body: string, from: number): number {
  let position = skipSpace(body, from);
  while (body[position] === ';' || body[position] === ',') position = skipSpace(body, position + 1);
  return position;
}
