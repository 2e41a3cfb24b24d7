/** MiniCPM5's call body: `NAME">` then `<param name="K">V</param>` tags (optionally inside `<arguments>`), after `<function name="`. */
// Values are raw text (a `<![CDATA[…]]>` wrapper is removed), typed by the tool's schema: a string
// stays as written, anything else is read as JSON, as vLLM's minicpm5xml parser coerces them.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/minicpm5xml_tool_parser.py
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from '../shared/body-grammar.js';
import { coerceArgumentsBySchema } from '../shared/coerce-by-schema.js';
import { defineKey, skipSpace } from '../shared/lenient-json.js';

export const paramOpen = '<param name="';
export const paramClose = '</param>';
const argumentsOpen = '<arguments>';
const argumentsClose = '</arguments>';
const cdataOpen = '<![CDATA[';
const cdataClose = ']]>';

/** The name and the rest of the opening tag: `get_weather">` (or with single quotes). */
const functionHeader = /^([^\s"'<>]+)["'][^>]*>/;

export const minicpmFunctionGrammar: BodyGrammar = {
  id: 'minicpm-function',
  accepts: (body) => functionHeader.test(body),
  decode,
};

function decode(body: string, context: DecodeContext): DecodedBody {
  // Nothing marks the last parameter, so a reply cut off inside the block may have had more to say.
  if (context.framing !== 'closed') return { type: 'invalid', message: 'The call is cut off before </function>', incomplete: true };
  const header = functionHeader.exec(body);
  if (header === null) return { type: 'invalid', message: `Unreadable function tag: ${excerpt(body)}` };
  const name = header[1] as string;
  const raw: Record<string, string> = {};
  let position = header[0].length;
  for (;;) {
    position = skipSpace(body, position);
    for (const wrapper of [argumentsOpen, argumentsClose])
      if (body.startsWith(wrapper, position)) position = skipSpace(body, position + wrapper.length);
    if (position >= body.length) break;
    if (!body.startsWith(paramOpen, position))
      return { type: 'invalid', message: `Unexpected text in the call to "${name}": ${excerpt(body.slice(position))}` };
    const keyEnd = body.indexOf('">', position + paramOpen.length);
    if (keyEnd < 0) return { type: 'invalid', message: `A parameter name in the call to "${name}" is not closed` };
    const key = body.slice(position + paramOpen.length, keyEnd);
    const valueEnd = body.indexOf(paramClose, keyEnd + 2);
    if (valueEnd < 0) return { type: 'invalid', message: `The value of "${key}" in the call to "${name}" is not closed`, incomplete: true };
    defineKey(raw, key, withoutCdata(body.slice(keyEnd + 2, valueEnd)));
    position = valueEnd + paramClose.length;
  }
  return {
    type: 'calls',
    calls: [{ type: 'call', name, arguments: coerceArgumentsBySchema(raw, context.roster.resolve(name)?.parameters ?? {}) }],
  };
}

function withoutCdata(value: string): string {
  return value.startsWith(cdataOpen) && value.endsWith(cdataClose) ? value.slice(cdataOpen.length, -cdataClose.length) : value;
}
