/** Calls written as a function tag around JSON arguments: the tag names the function, the body is `NAME>{json}`. */
// Llama 3.1's custom-tool syntax is `<function=NAME>{json}</function>`; Hermes 2 Pro models also write
// `<function name="NAME">{json}</function>` (llama.cpp's Hermes 2 Pro parser reads both). The start
// marker takes everything up to the name, so the body is the name, the rest of the tag, then the JSON.
import type { BodyGrammar, DecodeContext, DecodedBody } from './body-grammar.js';
import { isPlainObject } from './call-arguments.js';
import { parseLenientJson } from './lenient-json.js';

/** A grammar for bodies matching `shape`: group 1 the name, group 2 the JSON arguments. */
function functionTagJsonGrammar(id: string, shape: RegExp): BodyGrammar {
  return {
    id,
    accepts: (body) => shape.test(body),
    decode(body: string, context: DecodeContext): DecodedBody {
      const [, name = '', json = ''] = shape.exec(body) ?? [];
      const parsed = parseLenientJson(json, { closeOpenBrackets: context.framing === 'closed' });
      if (parsed.type === 'error')
        return { type: 'invalid', message: `Unreadable arguments for "${name}": ${parsed.message}`, incomplete: parsed.incomplete };
      if (!isPlainObject(parsed.value)) return { type: 'invalid', message: `The arguments for "${name}" are not an object` };
      return { type: 'calls', calls: [{ type: 'call', name, arguments: parsed.value }] };
    },
  };
}

/** After `<function=`: `NAME>{json}`. */
export const functionTagGrammar = functionTagJsonGrammar('llama3-function-tag', /^([A-Za-z_][\w.-]*)>\s*(\{[\s\S]*)$/);

/**
 * After `<function name="` (or `'`): `NAME">{json}`. MiniCPM5 registers the same marker for its
 * `<param name=…>` bodies; this grammar takes only a JSON body, so the two never compete for one.
 */
export const functionNameAttributeGrammar = functionTagJsonGrammar(
  'function-name-attribute-json',
  /^([A-Za-z_][\w.-]*)["']\s*>\s*(\{[\s\S]*)$/,
);
