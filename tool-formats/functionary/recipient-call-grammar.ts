/** Functionary v3.2's call body, `NAME\n{json}` (the text after `>>>`). */
import type { BodyGrammar, DecodeContext, DecodedBody } from '../shared/body-grammar.js';
import { readArgumentsObject } from '../shared/json-arguments.js';

const recipientCallShape = /^([A-Za-z_][\w.:-]*)\r?\n\s*(\{[\s\S]*)$/;

export const recipientCallGrammar: BodyGrammar = {
  id: 'functionary-recipient',
  accepts: (body) => recipientCallShape.test(body),
  decode(body: string, context: DecodeContext): DecodedBody {
    const [, name = '', json = ''] = recipientCallShape.exec(body) ?? [];
    const read = readArgumentsObject(json, name, context.framing);
    return read.type === 'invalid' ? read : { type: 'calls', calls: [{ type: 'call', name, arguments: read.value }] };
  },
};
