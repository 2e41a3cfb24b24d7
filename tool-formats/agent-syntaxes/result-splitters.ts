/** How agents hand tool results back in text: one splitter per convention. */
// Each finds the results in a user turn and keeps the text around them. Results are matched to calls by
// position, so a splitter only has to find them in order.
import type { AgentResultSegment } from '../../src/core/index.js';
import { readLenientJson, skipSpace } from '../shared/lenient-json.js';

export type ResultSplitter = (text: string) => AgentResultSegment[];

type ResultMatch = { output: string; name?: string; isError?: boolean };

/** Every match of `pattern` (global) is a result; `read` takes the match apart. */
function patternResults(pattern: RegExp, read: (match: RegExpExecArray) => ResultMatch): ResultSplitter {
  return (text) => {
    const segments: AgentResultSegment[] = [];
    let position = 0;
    for (const match of text.matchAll(pattern)) {
      if (match.index > position) segments.push({ type: 'text', text: text.slice(position, match.index) });
      segments.push({ type: 'result', raw: match[0], ...read(match) });
      position = match.index + match[0].length;
    }
    if (position < text.length) segments.push({ type: 'text', text: text.slice(position) });
    return segments;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A result value as text: JSON values other than strings stay JSON. */
function outputText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The object a whole text holds (lenient JSON), or undefined. */
function wholeObject(text: string): Record<string, unknown> | undefined {
  const start = skipSpace(text, 0);
  if (text[start] !== '{') return undefined;
  const read = readLenientJson(text, start);
  if (read.type === 'error' || skipSpace(text, read.end) !== text.length) return undefined;
  return typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value)
    ? (read.value as Record<string, unknown>)
    : undefined;
}

/** `{"name", <key>, "is_error"?}`, as the gateway's families write results, taken apart; undefined for anything else. */
function resultObject(value: Record<string, unknown> | undefined, key: string): ResultMatch | undefined {
  if (value === undefined || !(key in value)) return undefined;
  const match: ResultMatch = { output: outputText(value[key]) };
  if (typeof value.name === 'string') match.name = value.name;
  if (value.is_error === true) match.isError = true;
  return match;
}

/**
 * `<open>\noutput\n<close>` per result (Hermes' and Qwen's `<tool_response>`): one newline on each side
 * belongs to the wrapper. With `objectKey`, a body that is one JSON object holding that key is unwrapped
 * to it (Gemma's `{"name", "output"}`, Mistral's `{"content", "call_id"}`); any other body is the result.
 */
export function taggedResults(open: string, close: string, objectKey?: string): ResultSplitter {
  const pattern = new RegExp(`${escapeRegExp(open)}\\n?([\\s\\S]*?)\\n?${escapeRegExp(close)}`, 'g');
  return patternResults(pattern, (match) => {
    const body = match[1] ?? '';
    if (objectKey === undefined) return { output: body };
    return resultObject(wholeObject(body), objectKey) ?? { output: body.trim() };
  });
}

/**
 * Llama 3.1's `ipython` role, in the two forms an agent can put in a chat turn: the template's own header
 * (`<|start_header_id|>ipython<|end_header_id|>\n\nOUTPUT<|eot_id|>`, the `<|eot_id|>` optional at the
 * end), or a turn made only of `{"name": …, "output": …}` objects, which is how the gateway writes ipython
 * turns for prompted Llama models.
 */
export const llamaIpythonResults: ResultSplitter = (text) => {
  const headed = ipythonHeaderResults(text);
  if (headed.some((segment) => segment.type === 'result')) return headed;
  return jsonOutputResults(text) ?? [{ type: 'text', text }];
};

const ipythonHeaderResults = patternResults(
  /<\|start_header_id\|>ipython<\|end_header_id\|>\s*([\s\S]*?)\s*(?:<\|eot_id\|>|$)/g,
  (match) => ({ output: match[1] ?? '' }),
);

/** The whole turn as JSON objects each holding `output` (separated by space, `;` or `,`), or undefined. */
function jsonOutputResults(text: string): AgentResultSegment[] | undefined {
  const segments: AgentResultSegment[] = [];
  let position = skipSpace(text, 0);
  while (position < text.length) {
    const read = readLenientJson(text, position);
    if (read.type === 'error') return undefined;
    const value =
      typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value)
        ? (read.value as Record<string, unknown>)
        : undefined;
    const result = resultObject(value, 'output');
    if (result === undefined) return undefined;
    segments.push({ type: 'result', raw: text.slice(position, read.end), ...result });
    position = skipSpace(text, read.end);
    while (text[position] === ';' || text[position] === ',') position = skipSpace(text, position + 1);
  }
  return segments.length ? segments : undefined;
}

/**
 * Harmony's tool messages: `<|start|>functions.NAME to=assistant<|channel|>commentary<|message|>OUTPUT<|end|>`.
 * @see https://cookbook.openai.com/articles/openai-harmony#receiving-tool-calls
 */
export const harmonyResults: ResultSplitter = patternResults(
  /<\|start\|>functions\.([\w.-]+) to=assistant(?:<\|channel\|>commentary)?<\|message\|>([\s\S]*?)(?:<\|end\|>|$)/g,
  (match) => ({ name: match[1] ?? '', output: match[2] ?? '' }),
);

/** Mistral's `[TOOL_RESULTS] {"content", "call_id"}[/TOOL_RESULTS]` (v3 templates), or the bare output (later ones). */
export const mistralResults = taggedResults('[TOOL_RESULTS]', '[/TOOL_RESULTS]', 'content');

/** Gemma's ```` ```tool_output ```` fences, holding `{"name", "output"}` or the bare output. */
export const gemmaResults = taggedResults('```tool_output', '```', 'output');
