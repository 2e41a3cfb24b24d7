/** Llama 3.1's alternative custom-tool syntax, `<function=NAME>{json}</function>`: the body is `NAME>{json}`. */
import type { BodyGrammar, DecodeContext, DecodedBody } from './body-grammar.js';
import { isPlainObject } from './call-arguments.js';
import { parseLenientJson } from './lenient-json.js';

const functionTagShape = /^([A-Za-z_][\w.-]*)>\s*(\{[\s\S]*)$/;

export const functionTagGrammar: BodyGrammar = {
  id: 'llama3-function-tag',
  accepts: (body) => functionTagShape.test(body),
  decode(body: string, context: DecodeContext): DecodedBody {
    const [, name = '', json = ''] = functionTagShape.exec(body) ?? [];
    const parsed = parseLenientJson(json, { closeOpenBrackets: context.framing === 'closed' });
    if (parsed.type === 'error')
      return { type: 'invalid', message: `Unreadable arguments for "${name}": ${parsed.message}`, incomplete: parsed.incomplete };
    if (!isPlainObject(parsed.value)) return { type: 'invalid', message: `The arguments for "${name}" are not an object` };
    return { type: 'calls', calls: [{ type: 'call', name, arguments: parsed.value }] };
  },
};
