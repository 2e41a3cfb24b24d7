/** Calls as the JSON objects JSON-family chat templates print: `{"name": …, "arguments": {…}}`, alone or in a list. */
import type { ToolCallPart } from '../../src/core/index.js';
import { argumentsForRendering, formatJson } from './format-json.js';

type CallText = Pick<ToolCallPart, 'name' | 'arguments'>;

/** `argumentsKey` is `parameters` for the templates that call them so (Llama, InternLM). */
export function jsonCallObject(call: CallText, argumentsKey = 'arguments'): Record<string, unknown> {
  return { name: call.name, [argumentsKey]: argumentsForRendering(call.arguments) };
}

/** One JSON list holding every call, in Python spacing: `[{"name": "a", "arguments": {}}, …]`. */
export function renderJsonCallList(calls: readonly CallText[]): string {
  return formatJson(calls.map((call) => jsonCallObject(call)));
}
