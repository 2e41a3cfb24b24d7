/** The calls inside a DSML section: `<｜DSML｜invoke name="F">` blocks of `<｜DSML｜parameter …>` values. */
// `string="true"` marks a value written as it is, `string="false"` one written as JSON (the template's
// words). The tool's JSON Schema decides when it has the parameter, as for every XML-ish family, so a
// `string` stays a string; without it the attribute does.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv32_tool_parser.py
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/DeepSeek-V3.2.jinja
import { excerpt, type BodyFraming, type DecodedBody } from '../shared/body-grammar.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { callSectionGrammar } from '../shared/call-section-grammar.js';
import { coerceBySchema } from '../shared/coerce-by-schema.js';
import { defineKey, parseLenientJson, skipSpace } from '../shared/lenient-json.js';
import type { ToolRoster } from '../shared/tool-roster.js';
import { invokeClose, invokeOpen, parameterClose, parameterOpen } from './dsml-tokens.js';

/** ` name="F">` (the rest of an invoke's open tag), quotes either way. */
const invokeHead = /^\s*name\s*=\s*(?:"([^"]*)"|'([^']*)')\s*>/;
/** ` name="K" string="true">` (the rest of a parameter's open tag); `string` is optional. */
const parameterHead = /^\s*name\s*=\s*(?:"([^"]*)"|'([^']*)')(?:\s+string\s*=\s*["']?(true|false)["']?)?\s*>/;

type Invalid = Extract<DecodedBody, { type: 'invalid' }>;

export const dsmlInvokeGrammar = callSectionGrammar({
  id: 'deepseek-dsml',
  callStart: invokeOpen,
  callEnd: invokeClose,
  // A section's body starts with its first invoke; nothing else is DSML.
  acceptsCall: () => false,
  readCall: readInvoke,
});

function readInvoke(call: string, framing: BodyFraming, roster: ToolRoster): DecodedBody {
  // A block the reply ended in may have lost parameters: it is never a call.
  if (framing === 'unclosed') return { type: 'invalid', message: `The call is cut off before ${invokeClose}`, incomplete: true };
  const head = invokeHead.exec(call);
  const name = head?.[1] ?? head?.[2];
  if (head === null || name === undefined || name.trim() === '') return invalid(`Unreadable ${invokeOpen} tag: ${excerpt(call)}`);
  const properties = propertiesOf(roster, name);
  const callArguments: Record<string, unknown> = {};
  let position = head[0].length;
  for (;;) {
    position = skipSpace(call, position);
    if (position >= call.length) break;
    if (!call.startsWith(parameterOpen, position)) return invalid(`Unexpected text in the call to "${name}": ${excerpt(call.slice(position))}`);
    const parameter = parameterHead.exec(call.slice(position + parameterOpen.length));
    const key = parameter?.[1] ?? parameter?.[2];
    if (parameter === null || key === undefined) return invalid(`Unreadable ${parameterOpen} tag in the call to "${name}"`);
    const valueStart = position + parameterOpen.length + parameter[0].length;
    const valueEnd = call.indexOf(parameterClose, valueStart);
    if (valueEnd < 0) return invalid(`The value of "${key}" in the call to "${name}" is not closed`);
    defineKey(callArguments, key, convertValue(call.slice(valueStart, valueEnd), parameter[3], properties[key]));
    position = valueEnd + parameterClose.length;
  }
  return { type: 'calls', calls: [{ type: 'call', name, arguments: callArguments }] };
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

function invalid(message: string): Invalid {
  return { type: 'invalid', message };
}
