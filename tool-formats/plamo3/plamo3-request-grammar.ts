/** The requests inside PLaMo 3's `<|plamo:begin_tool_requests:plamo|>` section: a tagged name, then JSON arguments. */
// Each request is `<|plamo:begin_tool_request:plamo|>` + the name between its tags + the arguments (one
// JSON object) between theirs + `<|plamo:end_tool_request:plamo|>`. vLLM's parser gives up on the whole
// section at the first request out of shape; here the good requests still count and the bad one is
// rejected with a reason.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/plamo3_tool_parser.py
import { excerpt, type BodyFraming, type DecodedBody } from '../shared/body-grammar.js';
import { callSectionGrammar } from '../shared/call-section-grammar.js';
import type { ValueSpan } from '../shared/envelope.js';
import { readArgumentsObject } from '../shared/json-arguments.js';
import { argumentsClose, argumentsOpen, nameClose, nameOpen, requestClose, requestOpen } from './plamo3-tokens.js';

/** The arguments are a raw value: the section's and a request's end tags inside them are their text. */
export const plamo3Values: readonly ValueSpan[] = [{ open: argumentsOpen, close: argumentsClose }];

export const plamo3RequestGrammar = callSectionGrammar({
  id: 'plamo3-requests',
  values: { type: 'spans', spans: plamo3Values },
  callStart: requestOpen,
  callEnd: requestClose,
  acceptsCall: () => false,
  readCall: (request, framing) => readRequest(request, framing),
});

function readRequest(request: string, framing: BodyFraming): DecodedBody {
  const cutOff = framing === 'unclosed';
  if (!request.startsWith(nameOpen))
    return {
      type: 'invalid',
      message: `A tool request without a name: ${excerpt(request)}`,
      incomplete: cutOff && nameOpen.startsWith(request),
    };
  const nameEnd = request.indexOf(nameClose, nameOpen.length);
  if (nameEnd < 0) return { type: 'invalid', message: 'The tool name is not closed', incomplete: cutOff };
  const name = request.slice(nameOpen.length, nameEnd).trim();
  const rest = request.slice(nameEnd + nameClose.length).trimStart();
  if (!rest.startsWith(argumentsOpen))
    return { type: 'invalid', message: `The request for "${name}" has no arguments`, incomplete: cutOff && argumentsOpen.startsWith(rest) };
  const argumentsEnd = rest.indexOf(argumentsClose, argumentsOpen.length);
  // Without its close tag the arguments may be cut off, however complete the JSON looks.
  if (argumentsEnd < 0) return { type: 'invalid', message: `The arguments for "${name}" are not closed`, incomplete: true };
  const read = readArgumentsObject(rest.slice(argumentsOpen.length, argumentsEnd), name, 'closed');
  if (read.type === 'invalid') return read;
  return { type: 'calls', calls: [{ type: 'call', name, arguments: read.value }] };
}
