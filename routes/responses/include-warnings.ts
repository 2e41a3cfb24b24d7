/**
 * `include` and `top_logprobs` on a Responses request: what of them the gateway honours, and a warning for
 * the rest, never a silent drop (the values and their meanings: `IncludeEnum` in OpenAI's OpenAPI document,
 * https://platform.openai.com/docs/api-reference/responses/create#responses-create-include).
 * - `reasoning.encrypted_content` is honoured: a signed reasoning block comes back in the reasoning item's
 *   `encrypted_content` (signed-reasoning.ts), whether asked for or not.
 * - `message.input_image.image_url` is honoured: input items are kept as sent, image URLs included, for
 *   GET /v1/responses/{id}/input_items.
 * - `message.output_text.logprobs` and `top_logprobs`: log probabilities have no place in the neutral event
 *   stream (Chat Completions says the same of its `logprobs`), so `output_text.logprobs` stays `[]`.
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

const logprobsWarning: Warning = {
  code: 'unsupported-parameter',
  message:
    'Log probabilities (include message.output_text.logprobs, top_logprobs) are not returned by this gateway: output_text logprobs is [].',
};

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

/** The warnings for the request's `include` and `top_logprobs` (the body's own fields, as sent). */
export function includeWarnings(include: unknown, topLogprobs: unknown): Warning[] {
  const values = Array.isArray(include) ? include.filter((value): value is string => typeof value === 'string') : [];
  const warnings: Warning[] = [];
  if (values.includes(logprobs) || (typeof topLogprobs === 'number' && topLogprobs > 0)) warnings.push(logprobsWarning);
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
