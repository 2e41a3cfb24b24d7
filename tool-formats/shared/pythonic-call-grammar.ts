/** The Python-call body grammar (`[f(a=1), g()]`, `f(a=1)`), shared by pythonic, LFM2, tool_code and python_tag bodies. */
import type { BodyGrammar, DecodeContext, DecodedBody } from './body-grammar.js';
import type { CandidateCall } from './call-payload.js';
import { readPythonicCalls, type PythonicCall } from './pythonic-calls.js';
import { parameterNames } from './tool-roster.js';

const pythonicCallShape = /^\[?\s*[A-Za-z_][\w.]*\s*\(/;

export const pythonicCallGrammar: BodyGrammar = {
  id: 'pythonic',
  accepts: (body) => pythonicCallShape.test(body),
  decode: decodePythonicCalls,
};

/**
 * `toolName` maps the function as written to the tool it calls (Llama's built-ins write `NAME.call(…)`);
 * it runs before the arguments are matched, since positional ones are matched by the tool's parameters.
 */
export function decodePythonicCalls(body: string, context: DecodeContext, toolName?: (written: string) => string): DecodedBody {
  const read = readPythonicCalls(body);
  if (read.type === 'error') return { type: 'invalid', message: `Unreadable Python call: ${read.message}` };
  const calls = toolName === undefined ? read.calls : read.calls.map((call) => ({ ...call, name: toolName(call.name) }));
  return { type: 'calls', calls: calls.map((call) => toCandidate(call, context)) };
}

/**
 * Positional arguments cannot be matched to names reliably (schemas have no order), except when
 * the tool has exactly one parameter.
 */
function toCandidate(call: PythonicCall, context: DecodeContext): CandidateCall {
  if (call.positional.length === 0) return { type: 'call', name: call.name, arguments: call.keywords };
  const tool = context.roster.resolve(call.name);
  // An unknown tool is reported as unavailable, whatever its arguments look like.
  if (tool === undefined) return { type: 'call', name: call.name, arguments: call.keywords };
  const names = parameterNames(tool);
  const only = names[0];
  if (names.length === 1 && only !== undefined && call.positional.length === 1 && !Object.hasOwn(call.keywords, only)) {
    return { type: 'call', name: call.name, arguments: { ...call.keywords, [only]: call.positional[0] } };
  }
  return { type: 'invalid', message: `Positional arguments in the call to "${call.name}" cannot be matched to parameter names` };
}
