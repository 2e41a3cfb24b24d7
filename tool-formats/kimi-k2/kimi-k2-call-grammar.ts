/** The calls inside Kimi-K2's tool-call section: `<|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>`. */
// The header `functions.NAME:IDX` is the call's id; the name is NAME. A header without `:IDX` is a
// name only (the gateway then makes an id).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/kimi_k2_tool_parser.py
import type { BodyFraming, DecodedBody } from '../shared/body-grammar.js';
import { callSectionGrammar } from '../shared/call-section-grammar.js';
import { readArgumentsObject } from '../shared/json-arguments.js';
import { isIndexedCallHeader, nameInCallHeader } from './kimi-k2-call-id.js';
import { toolCallArgumentBegin, toolCallBegin, toolCallEnd } from './kimi-k2-tokens.js';

const headerShape = /^[\w.:-]+$/;

export const kimiCallGrammar = callSectionGrammar({
  id: 'kimi-k2-calls',
  // The arguments are JSON: a call's end token inside one of its strings is text.
  values: { type: 'json' },
  callStart: toolCallBegin,
  callEnd: toolCallEnd,
  acceptsCall(body) {
    const argumentBegin = body.indexOf(toolCallArgumentBegin);
    return argumentBegin >= 0 && headerShape.test(body.slice(0, argumentBegin).trim());
  },
  readCall: readKimiCall,
});

function readKimiCall(call: string, framing: BodyFraming): DecodedBody {
  const argumentBegin = call.indexOf(toolCallArgumentBegin);
  if (argumentBegin < 0) return { type: 'invalid', message: `No ${toolCallArgumentBegin} in the call`, incomplete: framing === 'unclosed' };
  const header = call.slice(0, argumentBegin).trim();
  if (!headerShape.test(header)) return { type: 'invalid', message: `Unreadable call header "${header}"` };
  const name = nameInCallHeader(header);
  const read = readArgumentsObject(call.slice(argumentBegin + toolCallArgumentBegin.length), name, framing);
  if (read.type === 'invalid') return read;
  return {
    type: 'calls',
    calls: [
      isIndexedCallHeader(header)
        ? { type: 'call', name, arguments: read.value, id: header }
        : { type: 'call', name, arguments: read.value },
    ],
  };
}
