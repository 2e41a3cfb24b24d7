/** The calls inside Kimi K3's `<|open|>tools<|sep|>` section: `call tool="N"` tags holding typed `argument` tags or one `json` object. */
// Each call is `<|open|>call tool="NAME" index="I"<|sep|>` then `<|open|>argument key="K" type="T"<|sep|>V
// <|close|>argument<|sep|>` per argument (T `string`: V as written; any other type: V is JSON) or one
// `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`, then `<|close|>call<|sep|>`. An argument
// without a type is typed by the tool's schema.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/Kimi-K3.jinja
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/kimi_k3_tool_parser.py
import { excerpt, type BodyFraming, type DecodedBody } from '../shared/body-grammar.js';
import { callSectionGrammar } from '../shared/call-section-grammar.js';
import { coerceBySchema } from '../shared/coerce-by-schema.js';
import type { ValueSpan } from '../shared/envelope.js';
import { readArgumentsObject } from '../shared/json-arguments.js';
import { defineKey, parseLenientJson, skipSpace } from '../shared/lenient-json.js';
import type { ToolRoster } from '../shared/tool-roster.js';
import { closeTag, open, readAttributes, separator } from './kimi-k3-tokens.js';

export const callOpen = `${open}call`;
export const callClose = closeTag('call');
export const argumentOpen = `${open}argument`;
export const argumentClose = closeTag('argument');
export const jsonOpen = `${open}json`;
export const jsonClose = closeTag('json');

type Invalid = Extract<DecodedBody, { type: 'invalid' }>;

/** Raw values: the section's and a call's end tags inside one are its text. */
export const kimiK3Values: readonly ValueSpan[] = [
  { open: argumentOpen, close: argumentClose },
  { open: jsonOpen, close: jsonClose },
];

export const kimiK3CallGrammar = callSectionGrammar({
  id: 'kimi-k3-calls',
  values: { type: 'spans', spans: kimiK3Values },
  callStart: callOpen,
  callEnd: callClose,
  acceptsCall: () => false,
  readCall: (call, framing, context) => readCall(call, framing, context.roster),
});

function readCall(call: string, framing: BodyFraming, roster: ToolRoster): DecodedBody {
  const cutOff = framing === 'unclosed';
  const headerEnd = call.indexOf(separator);
  if (headerEnd < 0) return { type: 'invalid', message: 'The call’s tag is cut off', incomplete: cutOff };
  const name = readAttributes(call.slice(0, headerEnd)).get('tool') ?? '';
  if (name === '') return { type: 'invalid', message: `A call without a tool name: ${excerpt(call)}` };
  const schema = roster.resolve(name)?.parameters ?? {};
  const values: Record<string, unknown> = {};
  let position = headerEnd + separator.length;
  for (;;) {
    position = skipSpace(call, position);
    if (position >= call.length) break;
    const rest = call.slice(position);
    if (rest.startsWith(jsonOpen)) return readJsonBlock(rest, name, cutOff);
    if (!rest.startsWith(argumentOpen))
      return {
        type: 'invalid',
        message: `Unexpected text in the call to "${name}": ${excerpt(rest)}`,
        incomplete: cutOff && (argumentOpen.startsWith(rest) || callClose.startsWith(rest)),
      };
    const argument = readArgument(rest, name, schema);
    if (argument.type === 'invalid') return argument;
    defineKey(values, argument.key, argument.value);
    position += argument.end;
  }
  // A call the reply ended in may have had more arguments.
  if (cutOff) return { type: 'invalid', message: `The call to "${name}" is cut off`, incomplete: true };
  return { type: 'calls', calls: [{ type: 'call', name, arguments: values }] };
}

type ArgumentRead = { type: 'argument'; key: string; value: unknown; end: number } | Invalid;

function readArgument(text: string, name: string, schema: Record<string, unknown>): ArgumentRead {
  const headerEnd = text.indexOf(separator);
  const valueEnd = text.indexOf(argumentClose);
  if (headerEnd < 0 || valueEnd < 0 || valueEnd < headerEnd)
    return { type: 'invalid', message: `An argument of "${name}" is not closed`, incomplete: true };
  const attributes = readAttributes(text.slice(argumentOpen.length, headerEnd));
  const key = attributes.get('key') ?? '';
  if (key === '') return { type: 'invalid', message: `An argument of "${name}" has no key` };
  const raw = text.slice(headerEnd + separator.length, valueEnd);
  const value = typedValue(raw, attributes.get('type'), propertySchema(schema, key));
  if (value.type === 'invalid')
    return { type: 'invalid', message: `The value of "${key}" in the call to "${name}" is not ${attributes.get('type')} JSON` };
  return { type: 'argument', key, value: value.value, end: valueEnd + argumentClose.length };
}

/** `string` values are raw; the other XTML types are JSON; no type: the tool's schema decides. */
function typedValue(raw: string, type: string | undefined, schema: unknown): { type: 'value'; value: unknown } | { type: 'invalid' } {
  if (type === 'string') return { type: 'value', value: raw };
  if (type === undefined) return { type: 'value', value: coerceBySchema(raw, schema) };
  const parsed = parseLenientJson(raw.trim());
  return parsed.type === 'value' ? parsed : { type: 'invalid' };
}

function propertySchema(schema: Record<string, unknown>, key: string): unknown {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>)[key] : undefined;
}

function readJsonBlock(text: string, name: string, cutOff: boolean): DecodedBody {
  const headerEnd = text.indexOf(separator);
  const end = text.indexOf(jsonClose);
  if (headerEnd < 0 || end < 0 || cutOff)
    return { type: 'invalid', message: `The JSON arguments of "${name}" are not closed`, incomplete: true };
  const read = readArgumentsObject(text.slice(headerEnd + separator.length, end), name, 'closed');
  return read.type === 'invalid' ? read : { type: 'calls', calls: [{ type: 'call', name, arguments: read.value }] };
}
