/** GLM-4.5/4.6/4.7 calls: `NAME` then `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs, inside `<tool_call>`. */
// 4.5/4.6 put the name and each tag on its own line, 4.7 writes them without newlines. A value is raw
// text: kept as written when the schema says string, else read as JSON (vLLM's glm45/glm47 parsers).
// LongCat writes the same pairs with `longcat_`-prefixed tags, hence `argumentPairsGrammar(tags)`.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/glm4_moe_tool_parser.py
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from './body-grammar.js';
import { coerceArgumentsBySchema } from './coerce-by-schema.js';
import { defineKey, skipSpace } from './lenient-json.js';
import { isMarkerRemnant } from './marker-matcher.js';

/** The tags of one arg-pairs dialect; `callClose` is the envelope's end marker. */
export type ArgumentPairTags = { id: string; keyOpen: string; keyClose: string; valueOpen: string; valueClose: string; callClose: string };

export const glmArgumentTags: ArgumentPairTags = {
  id: 'glm-arg-pairs',
  keyOpen: '<arg_key>',
  keyClose: '</arg_key>',
  valueOpen: '<arg_value>',
  valueClose: '</arg_value>',
  callClose: '</tool_call>',
};
export const argumentKeyOpen = glmArgumentTags.keyOpen;
export const argumentKeyClose = glmArgumentTags.keyClose;
export const argumentValueOpen = glmArgumentTags.valueOpen;
export const argumentValueClose = glmArgumentTags.valueClose;

/** A tool name: no spaces, tags, brackets or quotes, so Hermes JSON and prose never look like one. */
const namePrefix = /^[^\s<>{}[\]"'`]+/;

export function argumentPairsGrammar(tags: ArgumentPairTags): BodyGrammar {
  const bodyShape = new RegExp(`^[^\\s<>{}[\\]"'\`]+\\s*(?:${tags.keyOpen.replace(/[|]/g, '\\$&')}|$)`);
  return {
    id: tags.id,
    accepts: (body) => bodyShape.test(body),
    decode: (body, context) => decodeArgumentPairs(body, context, tags),
  };
}

export const glmArgumentPairsGrammar: BodyGrammar = argumentPairsGrammar(glmArgumentTags);

type Invalid = Extract<DecodedBody, { type: 'invalid' }>;

function decodeArgumentPairs(body: string, context: DecodeContext, tags: ArgumentPairTags): DecodedBody {
  // Nothing marks the last pair, so a reply cut off before the call's end may have had more to say.
  if (context.framing !== 'closed') return { type: 'invalid', message: `The call is cut off before ${tags.callClose}`, incomplete: true };
  const name = namePrefix.exec(body)?.[0] ?? '';
  const raw: Record<string, string> = {};
  let position = name.length;
  for (;;) {
    position = skipSpace(body, position);
    if (position >= body.length || isMarkerRemnant(body, position, tags.callClose)) break;
    if (!body.startsWith(tags.keyOpen, position))
      return invalid(`Unexpected text in the call to "${name}": ${excerpt(body.slice(position))}`);
    const pair = readPair(body, position + tags.keyOpen.length, name, tags);
    if (pair.type === 'invalid') return pair;
    defineKey(raw, pair.key, pair.value);
    position = pair.end;
  }
  const parameters = context.roster.resolve(name)?.parameters ?? {};
  return { type: 'calls', calls: [{ type: 'call', name, arguments: coerceArgumentsBySchema(raw, parameters) }] };
}

type PairRead = { type: 'pair'; key: string; value: string; end: number } | Invalid;

function readPair(body: string, keyStart: number, name: string, tags: ArgumentPairTags): PairRead {
  const keyEnd = body.indexOf(tags.keyClose, keyStart);
  if (keyEnd < 0) return invalid(`An argument name in the call to "${name}" is not closed`);
  const key = body.slice(keyStart, keyEnd).trim();
  const valueOpen = skipSpace(body, keyEnd + tags.keyClose.length);
  if (!body.startsWith(tags.valueOpen, valueOpen))
    return invalid(`The argument "${key}" in the call to "${name}" has no ${tags.valueOpen}`);
  const valueStart = valueOpen + tags.valueOpen.length;
  const valueEnd = body.indexOf(tags.valueClose, valueStart);
  // Never repaired, even when the envelope closed: a value holding the call's end marker may have
  // hidden the real end, and the text before it is then a cut-off value.
  if (valueEnd < 0) return { type: 'invalid', message: `The value of "${key}" in the call to "${name}" is not closed`, incomplete: true };
  return { type: 'pair', key, value: body.slice(valueStart, valueEnd), end: valueEnd + tags.valueClose.length };
}

function invalid(message: string): Invalid {
  return { type: 'invalid', message };
}
