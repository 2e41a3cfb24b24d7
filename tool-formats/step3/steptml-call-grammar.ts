/** The calls inside Step3's tool-call section: `function<｜tool_sep｜><steptml:invoke name="N">` with StepTML parameters. */
// Each call sits between `<｜tool_call_begin｜>` and `<｜tool_call_end｜>`: the call type `function` and
// the separator (left out by some replies vLLM's tests show), the function name again on a line of its
// own (as DeepSeek V3 writes it; vLLM's `TestStep3ParameterWhitespace` replies do, and its parser looks
// for the invoke anywhere after the separator; a name that differs from the invoke's is refused here),
// then one invoke whose parameters are raw
// text, converted with the tool's schema. A value ends at its `</steptml:parameter>` (vLLM stops at
// any `<`, which loses values holding code) and is kept as written: the format writes values tight
// against their tags, so edge whitespace is the value's own (vLLM strips it; a schema type still
// ignores it, since coercion trims numbers and booleans).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/step3_tool_parser.py
import { excerpt, type BodyFraming, type DecodedBody } from '../shared/body-grammar.js';
import type { ValueSpan } from '../shared/envelope.js';
import type { CandidateCall } from '../shared/call-payload.js';
import { callSectionGrammar } from '../shared/call-section-grammar.js';
import { coerceArgumentsBySchema } from '../shared/coerce-by-schema.js';
import { defineKey, skipSpace } from '../shared/lenient-json.js';
import type { ToolRoster } from '../shared/tool-roster.js';
import { invokeClose, invokeOpen, parameterClose, parameterOpen, toolCallBegin, toolCallEnd, toolSeparator } from './step3-tokens.js';

const functionType = 'function';
/** A function name and the whitespace after it, before the invoke. */
const repeatedName = /^([\w.-]+)\s+/;
const attributeClose = '">';

type Invalid = Extract<DecodedBody, { type: 'invalid' }>;
type Read<T> = ({ type: 'read'; end: number } & T) | Invalid;

/**
 * Code in a value may hold the section's (or a call's) end token; only its own `</steptml:parameter>`
 * ends it.
 */
export const parameterValues: readonly ValueSpan[] = [{ open: parameterOpen, close: parameterClose }];

export const steptmlCallGrammar = callSectionGrammar({
  id: 'step3-calls',
  values: { type: 'spans', spans: parameterValues },
  callStart: toolCallBegin,
  callEnd: toolCallEnd,
  acceptsCall: (body) => withoutCallType(body).startsWith(invokeOpen),
  readCall: (call, framing, context) => readSteptmlCall(call, framing, context.roster),
});

/** The invoke after the optional `function<｜tool_sep｜>` header. */
function withoutCallType(call: string): string {
  return withoutHeader(call).invoke;
}

/** `function<｜tool_sep｜>`, then optionally the name on its own line: the invoke, and that name if written. */
function withoutHeader(call: string): { invoke: string; headerName?: string } {
  const separator = call.indexOf(toolSeparator);
  if (separator < 0 || call.slice(0, separator).trim() !== functionType) return { invoke: call };
  const invoke = call.slice(separator + toolSeparator.length).trimStart();
  const named = repeatedName.exec(invoke);
  if (named === null) return { invoke };
  const rest = invoke.slice(named[0].length);
  // Only before an invoke (or, in a cut-off reply, the start of one): a bare name is no call.
  return rest.startsWith(invokeOpen) || invokeOpen.startsWith(rest) ? { invoke: rest, headerName: named[1] as string } : { invoke };
}

export function readSteptmlCall(text: string, framing: BodyFraming, roster: ToolRoster): DecodedBody {
  const { invoke: call, headerName } = withoutHeader(text);
  const cutOff = framing === 'unclosed';
  if (!call.startsWith(invokeOpen)) {
    return {
      type: 'invalid',
      message: `Not a StepTML invoke: ${excerpt(call)}`,
      incomplete: cutOff && (invokeOpen.startsWith(call) || call === '' || isHeaderPrefix(text)),
    };
  }
  const name = readAttribute(call, invokeOpen.length, 'The function name');
  if (name.type === 'invalid') return { ...name, incomplete: cutOff };
  if (headerName !== undefined && headerName !== name.value)
    return { type: 'invalid', message: `The call names "${headerName}" before invoking "${name.value}"` };
  const raw: Record<string, string> = {};
  let position = name.end;
  for (;;) {
    position = skipSpace(call, position);
    if (call.startsWith(invokeClose, position) || (position >= call.length && !cutOff)) break;
    if (position >= call.length) return { type: 'invalid', message: `The call to "${name.value}" is cut off`, incomplete: true };
    if (!call.startsWith(parameterOpen, position)) {
      const partial = parameterOpen.startsWith(call.slice(position)) || invokeClose.startsWith(call.slice(position));
      return {
        type: 'invalid',
        message: `Unexpected text in the call to "${name.value}": ${excerpt(call.slice(position))}`,
        incomplete: cutOff && partial,
      };
    }
    const key = readAttribute(call, position + parameterOpen.length, `A parameter name in the call to "${name.value}"`);
    if (key.type === 'invalid') return { ...key, incomplete: cutOff };
    const close = call.indexOf(parameterClose, key.end);
    if (close < 0)
      return { type: 'invalid', message: `The value of "${key.value}" in the call to "${name.value}" is not closed`, incomplete: true };
    defineKey(raw, key.value, call.slice(key.end, close));
    position = close + parameterClose.length;
  }
  const parameters = roster.resolve(name.value)?.parameters ?? {};
  const candidate: CandidateCall = { type: 'call', name: name.value, arguments: coerceArgumentsBySchema(raw, parameters) };
  return { type: 'calls', calls: [candidate] };
}

/** A `"…">`-closed attribute value starting at `start`. */
function readAttribute(text: string, start: number, what: string): Read<{ value: string }> {
  const end = text.indexOf(attributeClose, start);
  if (end < 0) return { type: 'invalid', message: `${what} is cut off` };
  const value = text.slice(start, end);
  if (value === '' || /["<>\n]/.test(value)) return { type: 'invalid', message: `${what} is unreadable: "${excerpt(value, 40)}"` };
  return { type: 'read', value, end: end + attributeClose.length };
}

/** `functi` or `function<｜to`: a reply cut inside the call header. */
function isHeaderPrefix(text: string): boolean {
  return (functionType + toolSeparator).startsWith(text);
}
