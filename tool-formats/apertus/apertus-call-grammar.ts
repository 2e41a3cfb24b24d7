/** Apertus's call list: a JSON array of one-key objects whose key is the function name, `[{"NAME": {…}}]`. */
// vLLM's apertus parser takes each object's first key as the name and its value as the arguments. A
// list in the common `{"name", "arguments"}` shape is read too, through the shared normalizer, since
// the shapes cannot be confused: a one-key object whose value is an object is Apertus's.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/apertus_tool_parser.py
import type { BodyGrammar, DecodeContext, DecodedBody } from '../shared/body-grammar.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { normalizeCallPayload, type CandidateCall } from '../shared/call-payload.js';
import { parseLenientJson } from '../shared/lenient-json.js';

export const apertusCallGrammar: BodyGrammar = {
  id: 'apertus-calls',
  accepts: (body) => /^\[\s*\{/.test(body),
  decode: decodeApertusCalls,
};

function decodeApertusCalls(body: string, context: DecodeContext): DecodedBody {
  const parsed = parseLenientJson(body, { closeOpenBrackets: context.framing === 'closed' });
  if (parsed.type === 'error') return { type: 'invalid', message: `Unreadable JSON: ${parsed.message}`, incomplete: parsed.incomplete };
  if (!Array.isArray(parsed.value) || parsed.value.length === 0) return { type: 'invalid', message: 'The tool-call list holds no call' };
  return { type: 'calls', calls: parsed.value.flatMap(readElement) };
}

function readElement(element: unknown): CandidateCall[] {
  if (isPlainObject(element)) {
    const keys = Object.keys(element);
    const name = keys[0];
    if (keys.length === 1 && name !== undefined && isPlainObject(element[name])) return [{ type: 'call', name, arguments: element[name] }];
  }
  return normalizeCallPayload(element, 'lenient') ?? [{ type: 'invalid', message: 'An element of the call list is not a tool call' }];
}
