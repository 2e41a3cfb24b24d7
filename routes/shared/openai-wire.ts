/** Neutral finish reasons, usage and errors → their OpenAI wire shapes (shared by OpenAI-style routes). */
import type { FinishReason } from '../../src/core/finish-reason.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import type { Usage } from '../../src/core/usage.js';

export type OpenAiFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export function toOpenAiFinishReason(reason: FinishReason): OpenAiFinishReason {
  switch (reason.unified) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      // OpenAI's enum has no 'error' or 'other'; the raw reason stays in the logs.
      return 'stop';
  }
}

export type OpenAiUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
  /** Extension: what the reply cost in USD, when the gateway knows the model's price (SDKs ignore it). */
  cost_usd?: number;
};

/** Undefined when the upstream reported no token counts: usage is never invented. */
export function toOpenAiUsage(usage: Usage): OpenAiUsage | undefined {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const wire: OpenAiUsage = { prompt_tokens: input, completion_tokens: output, total_tokens: usage.totalTokens ?? input + output };
  if (usage.cachedInputTokens !== undefined) wire.prompt_tokens_details = { cached_tokens: usage.cachedInputTokens };
  if (usage.reasoningTokens !== undefined) wire.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  if (usage.costUsd !== undefined) wire.cost_usd = usage.costUsd;
  return wire;
}

export type OpenAiErrorBody = { error: { message: string; type: string; param: string | null; code: string | null } };

export function toOpenAiErrorBody(error: GatewayError): OpenAiErrorBody {
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}
