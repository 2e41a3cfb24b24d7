/** GLM-4.5/4.6/4.7 calls: `NAME` then `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs, inside `<tool_call>`. */
// 4.5/4.6 put the name and each tag on its own line, 4.7 writes them without newlines. A value is raw
// text: kept as written when the schema says string, else read as JSON (vLLM's glm45/glm47 parsers).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/glm4_moe_tool_parser.py
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from '../shared/body-grammar.js';
import { coerceArgumentsBySchema } from '../shared/coerce-by-schema.js';
import { defineKey, skipSpace } from '../shared/lenient-json.js';
import { isMarkerRemnant } from '../shared/marker-matcher.js';

export const argumentKeyOpen = '<arg_key>';
export const argumentKeyClose = '</arg_key>';
export const argumentValueOpen = '<arg_value>';
export const argumentValueClose = '</arg_value>';
const toolCallClose = '</tool_call>';

/** A tool name: no spaces, tags, brackets or quotes, so Hermes JSON and prose never look like one. */
const namePrefix = /^[^\s<>{}[\]"'`]+/;
const bodyShape = /^[^\s<>{}[\]"'`]+\s*(?:<arg_key>|$)/;

export const glmArgumentPairsGrammar: BodyGrammar = {
  id: 'glm-arg-pairs',
  accepts: (body) => bodyShape.test(body),
  decode: decodeArgumentPairs,
};

type Invalid = Extract<DecodedBody, { type: 'invalid' }>;

function decodeArgumentPairs(body: string, context: DecodeContext): DecodedBody {
  // Nothing marks the last pair, so a reply cut off before </tool_call> may have had more to say.
  if (context.framing !== 'closed') return { type: 'invalid', message: 'The call is cut off before </tool_call>', incomplete: true };
  const name = namePrefix.exec(body)?.[0] ?? '';
  const raw: Record<string, string> = {};
  let position = name.length;
  for (;;) {
    position = skipSpace(body, position);
    if (position >= body.length || isMarkerRemnant(body, position, toolCallClose)) break;
    if (!body.startsWith(argumentKeyOpen, position)) return invalid(`Unexpected text in the call to "${name}": ${excerpt(body.slice(position))}`);
    const pair = readPair(body, position + argumentKeyOpen.length, name);
    if (pair.type === 'invalid') return pair;
    defineKey(raw, pair.key, pair.value);
    position = pair.end;
  }
  const parameters = context.roster.resolve(name)?.parameters ?? {};
  return { type: 'calls', calls: [{ type: 'call', name, arguments: coerceArgumentsBySchema(raw, parameters) }] };
}

type PairRead = { type: 'pair'; key: string; value: string; end: number } | Invalid;

function readPair(body: string, keyStart: number, name: string): PairRead {
  const keyEnd = body.indexOf(argumentKeyClose, keyStart);
  if (keyEnd < 0) return invalid(`An argument name in the call to "${name}" is not closed`);
  const key = body.slice(keyStart, keyEnd).trim();
  const valueOpen = skipSpace(body, keyEnd + argumentKeyClose.length);
  if (!body.startsWith(argumentValueOpen, valueOpen)) return invalid(`The argument "${key}" in the call to "${name}" has no <arg_value>`);
  const valueStart = valueOpen + argumentValueOpen.length;
  const valueEnd = body.indexOf(argumentValueClose, valueStart);
  // Never repaired, even when the envelope closed: a value holding `</tool_call>` may have hidden the
  // real end, and the text before it is then a cut-off value.
  if (valueEnd < 0) return { type: 'invalid', message: `The value of "${key}" in the call to "${name}" is not closed`, incomplete: true };
  return { type: 'pair', key, value: body.slice(valueStart, valueEnd), end: valueEnd + argumentValueClose.length };
}

function invalid(message: string): Invalid {
  return { type: 'invalid', message };
}
