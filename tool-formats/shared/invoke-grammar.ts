/** MiniMax-M2's calls: `<invoke name="NAME">` blocks of `<parameter name="KEY">value</parameter>`, inside `<minimax:tool_call>`. */
// One section holds one or more invokes, each one call. Values are raw text converted with the tool's
// JSON Schema (a `string` stays a string). The template writes a value right after its tag; a value the
// model put on its own lines (`>\n…\n<`) loses that one newline pair, so code keeps its indentation while
// vLLM's minimax_m2 parser strips all surrounding whitespace. Names may be quoted with " or '.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/minimax_m2_tool_parser.py
// @see https://github.com/MiniMax-AI/MiniMax-M2/blob/main/docs/tool_calling_guide.md
import { excerpt, type BodyFraming, type BodyGrammar, type DecodeContext, type DecodedBody } from './body-grammar.js';
import { callSectionGrammar, type CallSectionSyntax } from './call-section-grammar.js';
import { coerceArgumentsBySchema } from './coerce-by-schema.js';
import type { ValueSpan } from './envelope.js';
import { defineKey, skipSpace } from './lenient-json.js';

export const invokeOpen = '<invoke name=';
export const invokeClose = '</invoke>';
export const parameterOpen = '<parameter name=';
export const parameterClose = '</parameter>';

/** `"NAME">`, `'NAME'>` or `NAME>`: the name of an invoke or parameter and where its tag ends. */
const nameTag = /^\s*(?:"([^"<>]*)"|'([^'<>]*)'|([^\s"'<>]+))\s*>/;

type Invalid = Extract<DecodedBody, { type: 'invalid' }>;

/** Reads what follows an invoke's `name="F">`, from `start`. */
export type InvokeArgumentsReader = (
  call: string,
  name: string,
  start: number,
  framing: BodyFraming,
  context: DecodeContext,
) => DecodedBody;

/** A section of `<invoke name="F">…</invoke>` blocks (MiniMax-M2's; M3 spells the tags with its namespace token). */
export function invokeBlocksGrammar(
  id: string,
  callStart: string,
  callEnd: string,
  readArguments: InvokeArgumentsReader,
  values?: CallSectionSyntax['values'],
): BodyGrammar {
  return callSectionGrammar({
    id,
    callStart,
    callEnd,
    ...(values === undefined ? {} : { values }),
    // Only whole invokes: nothing else is MiniMax's.
    acceptsCall: () => false,
    readCall: (call, framing, context) => {
      const head = nameTag.exec(call);
      if (head === null) return { type: 'invalid', message: `Unreadable invoke: ${excerpt(call)}`, incomplete: framing === 'unclosed' };
      return readArguments(call, head[1] ?? head[2] ?? head[3] ?? '', head[0].length, framing, context);
    },
  });
}

/** Code in a value may hold `</invoke>` or the section's end; only its own `</parameter>` ends it. */
export const parameterValues: readonly ValueSpan[] = [{ open: parameterOpen, close: parameterClose }];

export const minimaxInvokeGrammar = invokeBlocksGrammar('minimax-m2-invokes', invokeOpen, invokeClose, readParameters, {
  type: 'spans',
  spans: parameterValues,
});

function readParameters(call: string, name: string, start: number, framing: BodyFraming, context: DecodeContext): DecodedBody {
  const raw: Record<string, string> = {};
  let position = start;
  for (;;) {
    position = skipSpace(call, position);
    if (position >= call.length) break;
    if (!call.startsWith(parameterOpen, position))
      return invalid(`Unexpected text in the call to "${name}": ${excerpt(call.slice(position))}`);
    const parameter = readParameter(call, position + parameterOpen.length, name);
    if (parameter.type === 'invalid') return parameter;
    defineKey(raw, parameter.key, parameter.value);
    position = parameter.end;
  }
  // Nothing marks the last parameter but </invoke>: a reply cut off before it may have had more to say.
  if (framing === 'unclosed')
    return { type: 'invalid', message: `The call to "${name}" is cut off before ${invokeClose}`, incomplete: true };
  return {
    type: 'calls',
    calls: [{ type: 'call', name, arguments: coerceArgumentsBySchema(raw, context.roster.resolve(name)?.parameters ?? {}) }],
  };
}

type ParameterRead = { type: 'parameter'; key: string; value: string; end: number } | Invalid;

function readParameter(call: string, nameStart: number, name: string): ParameterRead {
  const head = nameTag.exec(call.slice(nameStart));
  if (head === null) return { type: 'invalid', message: `An argument name in the call to "${name}" is unreadable`, incomplete: true };
  const key = head[1] ?? head[2] ?? head[3] ?? '';
  const valueStart = nameStart + head[0].length;
  const valueEnd = call.indexOf(parameterClose, valueStart);
  if (valueEnd < 0) return { type: 'invalid', message: `The value of "${key}" in the call to "${name}" is not closed`, incomplete: true };
  return { type: 'parameter', key, value: withoutLinePadding(call.slice(valueStart, valueEnd)), end: valueEnd + parameterClose.length };
}

/** A value written on its own lines (`>\nvalue\n</parameter>`) without that newline pair. */
export function withoutLinePadding(value: string): string {
  return value.length >= 2 && value.startsWith('\n') && value.endsWith('\n') ? value.slice(1, -1) : value;
}

function invalid(message: string): Invalid {
  return { type: 'invalid', message };
}
