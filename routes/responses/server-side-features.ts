/**
 * Responses fields that ask OpenAI's servers for something this gateway does not keep. A stored
 * conversation or a dashboard prompt cannot be stood in for: answering without it would lose context or
 * instructions without a word, so the request is refused naming the field. A background run can be:
 * the response runs in the foreground, is stored as usual (GET /v1/responses/{id} finds it) and a
 * warning says so. https://platform.openai.com/docs/api-reference/responses/create
 */
import { gatewayError } from '../../src/core/gateway-error.js';
import type { Warning } from '../../src/core/warning.js';
import type { ResponsesBody } from './responses-request-schema.js';

const refusals = {
  conversation:
    "This gateway keeps no conversations, so 'conversation' cannot be used: chain responses with previous_response_id, or send the whole input.",
  prompt: "This gateway cannot expand prompts kept by OpenAI, so 'prompt' cannot be used: send instructions and input instead.",
} as const;

const foregroundWarning: Warning = {
  code: 'unsupported-parameter',
  message: 'background is not supported by this gateway: the response ran in the foreground and is complete.',
};

/** Throws for a field that cannot be honoured; returns the warnings for those that were degraded. */
export function checkServerSideFeatures(body: ResponsesBody): Warning[] {
  for (const field of ['conversation', 'prompt'] as const) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) throw gatewayError('unsupported_value', { message: refusals[field], param: field });
  }
  return (body as Record<string, unknown>).background === true ? [foregroundWarning] : [];
}
