/**
 * The response format written into the prompt, for upstreams that cannot be given it natively (the
 * prompted lane with tools, whose reply must stay free to carry call markup; the scripted kind). The
 * gateway then checks the reply (check-response-format.ts), and `strict` becomes a warning, since a
 * prompt cannot guarantee what constrained decoding would.
 */
import type { ChatRequest, ResponseFormat } from '../core/chat-request.js';
import { strictNotGuaranteedCode, type Warning } from '../core/warning.js';
import { insertToolPrompt } from './insert-tool-prompt.js';

type JsonFormat = Exclude<ResponseFormat, { type: 'text' }>;

/** One shared wording: every family tried so far follows a plain instruction with the schema as JSON. */
export function renderResponseFormatPrompt(format: JsonFormat, withTools: boolean): string {
  const answer = withTools ? 'When you answer without calling a tool, your answer must be' : 'Your answer must be';
  if (format.type === 'json_object') return `${answer} a single JSON object, with no code fence and no text before or after it.`;
  const description = format.description ? ` (${format.description})` : '';
  // OpenAI's `json_schema.schema` is optional: without one there is no schema to quote.
  if (!format.schema)
    return `${answer} a single JSON value named "${format.name}"${description}, with no code fence and no text before or after it.`;
  return [
    `${answer} a single JSON value named "${format.name}"${description} that is valid against this JSON Schema,`,
    'with no code fence and no text before or after it:',
    JSON.stringify(format.schema),
  ].join('\n');
}

/**
 * The request as the upstream gets it: the format taken out of its native field and put into the
 * system prompt, with the strict warning when the client asked for a guarantee.
 */
export function promptForResponseFormat(
  request: ChatRequest,
  format: JsonFormat,
  options: { withTools: boolean; why: string },
): { request: ChatRequest; warnings: Warning[] } {
  const prompted: ChatRequest = {
    ...request,
    messages: insertToolPrompt(request.messages, renderResponseFormatPrompt(format, options.withTools)),
  };
  delete prompted.responseFormat;
  const warnings: Warning[] =
    format.type === 'json_schema' && format.strict === true
      ? [
          {
            code: strictNotGuaranteedCode,
            message: `response_format '${format.name}' asked for strict: ${options.why}, so the schema is written into the prompt and the reply checked by the gateway, not guaranteed.`,
          },
        ]
      : [];
  return { request: prompted, warnings };
}
