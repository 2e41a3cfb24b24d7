/** The one normalizer for every JSON shape a model uses to write tool calls. */
// {name, arguments} and its key aliases, the OpenAI {type:"function", function:{…}} shape, arrays,
// {"tool_calls":[…]} and llama.cpp's {"tool_call":{…}}. Every JSON path (tags, fences, bare JSON)
// goes through it.
import { isPlainObject } from './call-arguments.js';

/** A call as written, before the roster and argument checks. `arguments` is still loose. */
export type CandidateCall = { type: 'call'; name: string; arguments: unknown; id?: string } | { type: 'invalid'; message: string };

/**
 * `lenient` (inside an explicit envelope): sibling keys beside `name` are taken as the arguments.
 * `exact` (bare JSON, which might be an answer): only the call shape counts.
 */
export type PayloadStrictness = 'lenient' | 'exact';

const nameKeys = ['name', 'tool_name', 'tool', 'function'] as const;
const argumentKeys = ['arguments', 'parameters', 'params', 'input'] as const;
/** Keys that may sit beside the name of a call without being arguments. */
const envelopeKeys = new Set(['name', 'tool_name', 'tool', 'function', 'type', 'id', 'call_id', 'tool_call_id']);

/** The calls in `value`, or undefined when it is not a tool-call payload at all. */
export function normalizeCallPayload(value: unknown, strictness: PayloadStrictness): CandidateCall[] | undefined {
  if (Array.isArray(value)) return normalizeCallList(value, strictness);
  if (!isPlainObject(value)) return undefined;
  const name = readName(value);
  if (name === undefined) {
    if (Array.isArray(value['tool_calls'])) return normalizeCallList(value['tool_calls'], strictness);
    if (isPlainObject(value['tool_call'])) return normalizeCallPayload(value['tool_call'], strictness);
    if (isPlainObject(value['function'])) return normalizeFunctionShape(value, value['function'], strictness);
    return undefined;
  }
  const call = readCall(value, name, strictness);
  return call === undefined ? undefined : [call];
}

function normalizeCallList(values: unknown[], strictness: PayloadStrictness): CandidateCall[] | undefined {
  if (values.length === 0) return undefined;
  const calls: CandidateCall[] = [];
  for (const element of values) {
    const normalized = normalizeCallPayload(element, strictness);
    if (normalized !== undefined) calls.push(...normalized);
    else if (strictness === 'exact') return undefined;
    else calls.push({ type: 'invalid', message: 'An element of the call list is not a tool call' });
  }
  return calls;
}

/** `{"type":"function","id":…,"function":{"name":…,"arguments":"{…}"}}` (OpenAI's wire shape). */
function normalizeFunctionShape(
  outer: Record<string, unknown>,
  inner: Record<string, unknown>,
  strictness: PayloadStrictness,
): CandidateCall[] | undefined {
  const name = readName(inner);
  if (name === undefined) return undefined;
  const call = readCall(inner, name, strictness);
  if (call === undefined || call.type === 'invalid') return call === undefined ? undefined : [call];
  const id = call.id ?? readId(outer);
  return [id === undefined ? call : { ...call, id }];
}

function readName(value: Record<string, unknown>): string | undefined {
  for (const key of nameKeys) {
    const name = value[key];
    if (typeof name === 'string' && name.trim() !== '') return name.trim();
  }
  return undefined;
}

function readId(value: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'call_id', 'tool_call_id']) {
    const id = value[key];
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}

function readCall(value: Record<string, unknown>, name: string, strictness: PayloadStrictness): CandidateCall | undefined {
  const argumentKey = argumentKeys.find((key) => key in value);
  let callArguments: unknown;
  if (argumentKey !== undefined) {
    callArguments = unwrapRepeatedCall(value[argumentKey], name);
  } else {
    const siblings = Object.keys(value).filter((key) => !envelopeKeys.has(key));
    if (siblings.length > 0 && strictness === 'exact') return undefined;
    // Inside an envelope, `{"name":"get_weather","city":"Paris"}` means the arguments were flattened.
    callArguments = Object.fromEntries(siblings.map((key) => [key, value[key]]));
  }
  const id = readId(value);
  return id === undefined ? { type: 'call', name, arguments: callArguments } : { type: 'call', name, arguments: callArguments, id };
}

/**
 * Some models wrap the call twice: `{"name":"w","arguments":{"name":"w","arguments":{…},"k":…}}`.
 * The inner arguments win; keys beside them are kept.
 */
function unwrapRepeatedCall(callArguments: unknown, name: string): unknown {
  if (!isPlainObject(callArguments) || callArguments['name'] !== name || !isPlainObject(callArguments['arguments'])) {
    return callArguments;
  }
  const { name: _name, arguments: inner, ...siblings } = callArguments;
  return { ...siblings, ...(inner as Record<string, unknown>) };
}
