/** Neutral finish reasons, usage and errors → their Anthropic Messages wire shapes. */
import { assertNever } from '../../src/core/assert-never.js';
import type { FinishReason } from '../../src/core/finish-reason.js';
import type { GatewayError, GatewayErrorType } from '../../src/core/gateway-error.js';
import type { Usage } from '../../src/core/usage.js';
import { contextOverflowCode } from '../../src/core/context-overflow-code.js';

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';

/** Raw Anthropic values pass through when the upstream was Anthropic (see https://docs.anthropic.com/en/api/handling-stop-reasons). */
const anthropicStopReasons: ReadonlySet<string> = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal']);

export function toAnthropicStopReason(reason: FinishReason): AnthropicStopReason {
  // A declined request is Anthropic's `refusal` whatever the upstream called it (OpenAI ends one with `stop`).
  if (reason.refusal !== undefined) return 'refusal';
  switch (reason.unified) {
    case 'stop':
      return reason.raw === 'stop_sequence' || reason.stopSequence !== undefined ? 'stop_sequence' : 'end_turn';
    case 'tool-calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content-filter':
      return 'refusal';
    case 'error':
    case 'other':
      // The enum has no "other": keep an Anthropic upstream's own value (pause_turn), else a normal end.
      return reason.raw !== undefined && anthropicStopReasons.has(reason.raw) ? (reason.raw as AnthropicStopReason) : 'end_turn';
    default:
      return assertNever(reason.unified, 'finish reason');
  }
}

/**
 * Why a declined request stopped: Claude's `stop_details` beside `stop_reason: "refusal"`, on `message_delta`
 * when streamed (https://platform.claude.com/docs/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals).
 */
export type AnthropicStopDetails = { type: 'refusal'; category: string | null; explanation: string | null };

/** Undefined unless the model declined. OpenAI's words are the reply's text already: no explanation beside them. */
export function toAnthropicStopDetails(reason: FinishReason): AnthropicStopDetails | undefined {
  if (reason.refusal === undefined) return undefined;
  const explanation = reason.refusal === '' ? null : reason.refusal;
  return { type: 'refusal', category: reason.refusalCategory ?? null, explanation };
}

export type AnthropicUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  /** Extension: what the reply cost in USD, when the gateway knows the model's price (SDKs ignore it). */
  cost_usd?: number;
};

/**
 * Anthropic's `input_tokens` excludes cache reads, while neutral `inputTokens` is the whole prompt
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance).
 * The Message type requires both counts, so an upstream that reported none shows zeros.
 */
export function toAnthropicUsage(usage: Usage): AnthropicUsage {
  const cached = usage.cachedInputTokens;
  const written = usage.cacheWriteInputTokens;
  const wire: AnthropicUsage = {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - (cached ?? 0) - (written ?? 0)),
    output_tokens: usage.outputTokens ?? 0,
  };
  if (cached !== undefined) wire.cache_read_input_tokens = cached;
  if (written !== undefined) wire.cache_creation_input_tokens = written;
  if (usage.costUsd !== undefined) wire.cost_usd = usage.costUsd;
  return wire;
}

export type AnthropicErrorBody = { type: 'error'; error: { type: string; message: string } };

/** Anthropic's error types (https://docs.anthropic.com/en/api/errors) for the gateway's. */
const anthropicTypes: Record<GatewayErrorType, string> = {
  invalid_request_error: 'invalid_request_error',
  authentication_error: 'authentication_error',
  permission_error: 'permission_error',
  not_found_error: 'not_found_error',
  rate_limit_error: 'rate_limit_error',
  upstream_error: 'api_error',
  timeout_error: 'api_error',
  server_error: 'api_error',
};

/** Statuses with a type of their own in Anthropic's table (https://docs.anthropic.com/en/api/errors). */
const anthropicTypesByStatus: ReadonlyMap<number, string> = new Map([
  [404, 'not_found_error'],
  [413, 'request_too_large'],
  [529, 'overloaded_error'],
]);

/**
 * The Messages routes' error envelope, for HTTP replies and stream `error` events alike. An overloaded
 * upstream keeps its meaning (`overloaded_error`: HTTP 529, passed on, or its stream form), so Anthropic
 * clients back off as they should; a body too large is `request_too_large`, as Anthropic answers it.
 */
export function toAnthropicErrorBody(error: GatewayError): AnthropicErrorBody {
  const overloaded = error.code === 'overloaded' || error.code === 'overloaded_error';
  const type = overloaded ? 'overloaded_error' : (anthropicTypesByStatus.get(error.status) ?? anthropicTypes[error.type]);
  return { type: 'error', error: { type, message: anthropicMessage(error) } };
}

/**
 * A prompt that does not fit the model is said in Anthropic's words, `prompt is too long: …`, which
 * Anthropic clients read to compact the conversation (https://docs.anthropic.com/en/api/errors); the
 * upstream's own words follow.
 */
function anthropicMessage(error: GatewayError): string {
  if (error.code !== contextOverflowCode || /^prompt is too long/i.test(error.message)) return error.message;
  return `prompt is too long: ${error.message}`;
}
