/** Apertus's call list: a JSON array of one-key objects whose key is the function name, `[{"NAME": {…}}]`. */
// vLLM's apertus parser takes each object's first key as the name and its value as the arguments. A
// list in the common `{"name", "arguments"}` shape is read too, through the shared normalizer, since
// the shapes cannot be confused: a one-key object whose value is an object is Apertus's.
// A list the reply ended inside still yields the calls whose arguments object closed (vLLM's
// test_incomplete_tool_call: `[{"get_weather": {"location": "London"}` is that call): with one key per
// call, nothing of such a call can be missing but its closing brackets. A call whose arguments were cut
// is reported, never read.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/apertus_tool_parser.py
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from '../shared/body-grammar.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { normalizeCallPayload, type CandidateCall } from '../shared/call-payload.js';
import { parseLenientJson, readLenientJson, skipSpace } from '../shared/lenient-json.js';

export const apertusCallGrammar: BodyGrammar = {
  id: 'apertus-calls',
  accepts: (body) => /^\[\s*\{/.test(body),
  decode: decodeApertusCalls,
};

function decodeApertusCalls(body: string, context: DecodeContext): DecodedBody {
  const parsed = parseLenientJson(body, { closeOpenBrackets: context.framing === 'closed' });
  if (parsed.type === 'error') {
    const invalid: DecodedBody = { type: 'invalid', message: `Unreadable JSON: ${parsed.message}`, incomplete: parsed.incomplete };
    return context.framing === 'unclosed' && parsed.incomplete ? readCutList(body, invalid) : invalid;
  }
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

/** The calls of a list the reply ended inside, up to the first one it ended in (reported as cut off). */
function readCutList(body: string, unreadable: DecodedBody): DecodedBody {
  const calls: CandidateCall[] = [];
  let position = skipSpace(body, 1);
  while (position < body.length && body[position] !== ']') {
    const element = readClosedArguments(body, position);
    if (element === undefined) {
      calls.push({ type: 'invalid', message: `The reply ended inside a call: ${excerpt(body.slice(position), 40)}` });
      break;
    }
    calls.push(element.call);
    position = skipSpace(body, element.end);
    if (body[position] === ',') position = skipSpace(body, position + 1);
  }
  return calls.some((call) => call.type === 'call') ? { type: 'calls', calls } : unreadable;
}

/** `{"NAME": {…}` whose arguments closed, then its own `}` or the end of the reply. */
function readClosedArguments(body: string, start: number): { call: CandidateCall; end: number } | undefined {
  if (body[start] !== '{') return undefined;
  const name = readLenientJson(body, start + 1);
  if (name.type === 'error' || typeof name.value !== 'string') return undefined;
  const colon = skipSpace(body, name.end);
  if (body[colon] !== ':') return undefined;
  const callArguments = readLenientJson(body, colon + 1);
  if (callArguments.type === 'error' || !isPlainObject(callArguments.value)) return undefined;
  const end = skipSpace(body, callArguments.end);
  if (end < body.length && body[end] !== '}') return undefined;
  return { call: { type: 'call', name: name.value, arguments: callArguments.value }, end: end < body.length ? end + 1 : end };
}
