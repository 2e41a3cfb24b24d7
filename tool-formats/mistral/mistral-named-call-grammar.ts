/** Mistral's named calls after `[TOOL_CALLS]`: `NAME{…}`, `NAME[ARGS]{…}` and `NAME[CALL_ID]ID[ARGS]{…}`. */
// Tokenizer v11+ models write one call per `[TOOL_CALLS]`; the id, when written, is the model's own
// (9 alphanumerics) and is kept.
import type { BodyGrammar, DecodeContext, DecodedBody } from '../shared/body-grammar.js';
import { readArgumentsObject } from '../shared/json-arguments.js';

/**
 * The name, the optional segments, then the arguments' `{` or nothing yet (a reply cut off before them).
 * No whitespace: the tokenizer writes none, and `get_time {}` is prose more often than a call.
 */
const namedCallShape = /^([A-Za-z_][\w.:-]*)(?:\[CALL_ID\]([A-Za-z0-9]*))?(?:\[ARGS\])?(?=\{|$)/;

export const mistralNamedCallGrammar: BodyGrammar = {
  id: 'mistral-named-call',
  accepts: (body) => namedCallShape.test(body),
  decode(body: string, context: DecodeContext): DecodedBody {
    const match = namedCallShape.exec(body);
    const name = match?.[1] ?? '';
    const id = match?.[2] ?? '';
    const read = readArgumentsObject(body.slice(match?.[0].length ?? 0), name, context.framing);
    if (read.type === 'invalid') return read;
    return {
      type: 'calls',
      calls: [id === '' ? { type: 'call', name, arguments: read.value } : { type: 'call', name, arguments: read.value, id }],
    };
  },
};
