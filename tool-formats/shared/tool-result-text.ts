/** Ways families write tool results back into a user turn. */
import { toolResultText, type ToolResultPart } from '../../src/core/index.js';
import { formatJson } from './format-json.js';

export type ResultRenderer = (results: readonly ToolResultPart[]) => string;

/** `<tool_response>\n…\n</tool_response>` per result, as the Hermes and Qwen templates do. */
export function taggedResults(open: string, close: string): ResultRenderer {
  return (results) => results.map((result) => `${open}\n${resultText(result)}\n${close}`).join('\n');
}

/** A result's output, marked as an error when it is one (for wrappers that have no error flag of their own). */
export const resultText = toolResultText;

/** One JSON object per result (`{"name": …, "output": …}`), like Llama's ipython turns. */
export const jsonResultLines: ResultRenderer = (results) => results.map((result) => formatJson(resultObject(result))).join('\n');

/** A Markdown fence per result holding its JSON object. */
export function fencedResults(info: string): ResultRenderer {
  return (results) => results.map((result) => '```' + info + '\n' + formatJson(resultObject(result)) + '\n```').join('\n');
}

function resultObject(result: ToolResultPart): Record<string, unknown> {
  return { name: result.toolName, output: result.output, ...(result.isError === true ? { is_error: true } : {}) };
}
