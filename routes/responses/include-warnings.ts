/**
 * `include` and `top_logprobs` on a Responses request: what of them the gateway honours, and a warning for
 * the rest, never a silent drop (the values and their meanings: `IncludeEnum` in OpenAI's OpenAPI document,
 * https://platform.openai.com/docs/api-reference/responses/create#responses-create-include).
 * - `reasoning.encrypted_content` is honoured: a signed reasoning block comes back in the reasoning item's
 *   `encrypted_content` (signed-reasoning.ts), whether asked for or not.
 * - `message.input_image.image_url` is honoured: input items are kept as sent, image URLs included, for
 *   GET /v1/responses/{id}/input_items.
 * - `message.output_text.logprobs` (or `top_logprobs` above 0) is honoured where the upstream has log
 *   probabilities: it is asked for them (`logprobsRequest`), and `output_text.logprobs` holds what came back;
 *   an upstream kind without them says so in a warning of its own.
 * - The hosted tools' results (`file_search_call.results`, `web_search_call.*`, `code_interpreter_call.outputs`,
 *   `computer_call_output.output.image_url`): those tools do not run here (parse-responses-tools.ts drops
 *   them with a warning of their own), so there is nothing to include.
 */
import type { Warning } from '../../src/core/warning.js';

const honoured: ReadonlySet<string> = new Set(['reasoning.encrypted_content', 'message.input_image.image_url']);
const logprobs = 'message.output_text.logprobs';
const hostedToolResults: ReadonlySet<string> = new Set([
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'code_interpreter_call.outputs',
  'computer_call_output.output.image_url',
]);

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

function includeValues(include: unknown): string[] {
  return Array.isArray(include) ? include.filter((value): value is string => typeof value === 'string') : [];
}

/**
 * The Chat Completions fields that ask an upstream for log probabilities, when the request wants them:
 * `logprobs: true`, and `top_logprobs` as the client gave it.
 */
export function logprobsRequest(include: unknown, topLogprobs: number | null | undefined): Record<string, unknown> | undefined {
  const asked = includeValues(include).includes(logprobs) || (typeof topLogprobs === 'number' && topLogprobs > 0);
  if (!asked) return undefined;
  return typeof topLogprobs === 'number' ? { logprobs: true, top_logprobs: topLogprobs } : { logprobs: true };
}

/** The warnings for the request's `include` (the body's own field, as sent). */
export function includeWarnings(include: unknown): Warning[] {
  const values = includeValues(include);
  const warnings: Warning[] = [];
  const hosted = values.filter((value) => hostedToolResults.has(value));
  if (hosted.length)
    warnings.push({
      code: 'unsupported-parameter',
      message: `include ${quoted(hosted)}: hosted tools do not run through this gateway, so there are no such results to include.`,
    });
  const unknown = values.filter((value) => value !== logprobs && !honoured.has(value) && !hostedToolResults.has(value));
  if (unknown.length)
    warnings.push({ code: 'unsupported-parameter', message: `include ${quoted(unknown)}: not a value this gateway knows; ignored.` });
  return warnings;
}
