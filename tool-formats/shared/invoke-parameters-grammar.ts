/** Calls written as `<invoke name="F">` blocks of `<parameter name="K">V</parameter>` values, in any tag dialect. */
// DeepSeek V3.2 / V4 DSML (`<｜DSML｜invoke …>`, with a `string="true|false"` attribute) and dots
// (`<invoke …>` inside `<dots_function_call>`) share this shape. Read in one pass, each value up to its
// own close, so a value may hold any other tag (code that shows a call). The tool's JSON Schema decides a
// value's type first when it has the parameter, as for every XML-ish family, so a `string` stays a string;
// else `string="true"` keeps it as written and `string="false"` reads it as JSON.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv32_tool_parser.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/dots_tool_parser.py
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from './body-grammar.js';
import { isPlainObject } from './call-arguments.js';
import type { CandidateCall } from './call-payload.js';
import { coerceBySchema } from './coerce-by-schema.js';
import { defineKey, parseLenientJson, skipSpace } from './lenient-json.js';
import type { ToolRoster } from './tool-roster.js';

/** A dialect's tags; the opens stop before ` name=…>`. */
export type InvokeTags = { id: string; invokeOpen: string; invokeClose: string; parameterOpen: string; parameterClose: string };

/** ` name="F">` (the rest of an invoke's open tag), quoted either way or bare. */
const invokeHead = /^\s*name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))\s*>/;
/** ` name="K" string="true">` (the rest of a parameter's open tag); `string` is optional. */
const parameterHead = /^\s*name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))(?:\s+string\s*=\s*["']?(true|false)["']?)?\s*>/;

/** One invoke read from `start`: a call or why not, and where reading goes on. */
type InvokeRead = { call: CandidateCall; end: number; cutOff: boolean };

export function invokeParametersGrammar(tags: InvokeTags): BodyGrammar {
  return {
    id: tags.id,
    accepts: (body) => body.startsWith(tags.invokeOpen),
    decode: (body, context) => decodeInvokes(body, context, tags),
  };
}

function decodeInvokes(body: string, context: DecodeContext, tags: InvokeTags): DecodedBody {
  const calls: CandidateCall[] = [];
  let cutOff = false;
  let position = 0;
  for (;;) {
    position = skipSpace(body, position);
    if (position >= body.length) break;
    const read = readInvoke(body, position, context, tags);
    calls.push(read.call);
    cutOff = read.cutOff;
    position = read.end;
  }
  if (calls.some((call) => call.type === 'call')) return { type: 'calls', calls };
  const problem = calls[calls.length - 1];
  return {
    type: 'invalid',
    message: problem?.type === 'invalid' ? problem.message : 'The tool-call section holds no call',
    incomplete: cutOff,
  };
}

function readInvoke(body: string, start: number, context: DecodeContext, tags: InvokeTags): InvokeRead {
  const { invokeOpen, invokeClose, parameterOpen, parameterClose } = tags;
  const unclosed = context.framing === 'unclosed';
  if (!body.startsWith(invokeOpen, start))
    return skipInvoke(body, invokeOpen, `Unexpected text in the tool-call section: ${excerpt(body.slice(start))}`, start);
  const headStart = start + invokeOpen.length;
  const head = invokeHead.exec(body.slice(headStart, headStart + 300));
  const name = head?.[1] ?? head?.[2] ?? head?.[3];
  if (head === null || name === undefined || name.trim() === '') {
    return unclosed && body.indexOf('>', headStart) < 0
      ? cutOffInvoke(body, `no complete ${invokeOpen} tag`)
      : skipInvoke(body, invokeOpen, `Unreadable ${invokeOpen} tag: ${excerpt(body.slice(start))}`, headStart);
  }
  const properties = propertiesOf(context.roster, name);
  const callArguments: Record<string, unknown> = {};
  let position = headStart + head[0].length;
  for (;;) {
    position = skipSpace(body, position);
    if (body.startsWith(invokeClose, position))
      return { call: { type: 'call', name, arguments: callArguments }, end: position + invokeClose.length, cutOff: false };
    // A closed section may forget the last invoke's close; a cut-off reply may have lost the rest.
    if (position >= body.length)
      return unclosed
        ? cutOffInvoke(body, `the call to "${name}" has no ${invokeClose}`)
        : { call: { type: 'call', name, arguments: callArguments }, end: position, cutOff: false };
    if (!body.startsWith(parameterOpen, position))
      return skipInvoke(body, invokeOpen, `Unexpected text in the call to "${name}": ${excerpt(body.slice(position))}`, position);
    const parameter = parameterHead.exec(body.slice(position + parameterOpen.length, position + parameterOpen.length + 300));
    const key = parameter?.[1] ?? parameter?.[2] ?? parameter?.[3];
    if (parameter === null || key === undefined)
      return unclosed
        ? cutOffInvoke(body, `an unreadable parameter in the call to "${name}"`)
        : skipInvoke(body, invokeOpen, `Unreadable ${parameterOpen} tag in the call to "${name}"`, position);
    const valueStart = position + parameterOpen.length + parameter[0].length;
    const valueEnd = body.indexOf(parameterClose, valueStart);
    if (valueEnd < 0)
      return unclosed
        ? cutOffInvoke(body, `the value of "${key}" is not closed`)
        : skipInvoke(body, invokeOpen, `The value of "${key}" in the call to "${name}" is not closed`, valueStart);
    defineKey(callArguments, key, convertValue(body.slice(valueStart, valueEnd), parameter[4], properties[key]));
    position = valueEnd + parameterClose.length;
  }
}

/** After an unreadable invoke, reading goes on at the next one. */
function skipInvoke(body: string, invokeOpen: string, message: string, at: number): InvokeRead {
  const next = body.indexOf(invokeOpen, at);
  return { call: { type: 'invalid', message }, end: next < 0 ? body.length : next, cutOff: false };
}

/** A call the reply ended in may have lost parameters: never a call, and reported as cut off. */
function cutOffInvoke(body: string, message: string): InvokeRead {
  return { call: { type: 'invalid', message: `The reply ended inside a call: ${message}` }, end: body.length, cutOff: true };
}

function convertValue(raw: string, stringAttribute: string | undefined, schema: unknown): unknown {
  if (schema !== undefined) return coerceBySchema(raw, schema);
  if (stringAttribute === 'true') return raw;
  if (stringAttribute === 'false') {
    const parsed = parseLenientJson(raw.trim());
    if (parsed.type === 'value') return parsed.value;
  }
  return coerceBySchema(raw, undefined);
}

function propertiesOf(roster: ToolRoster, name: string): Record<string, unknown> {
  const properties = roster.resolve(name)?.parameters['properties'];
  return isPlainObject(properties) ? properties : {};
}
