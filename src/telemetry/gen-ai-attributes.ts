/**
 * The OpenTelemetry GenAI attribute names this gateway writes, and its own `interlingua.*` ones.
 * The GenAI names are still experimental (they moved to the semantic-conventions-genai repository,
 * and `gen_ai.provider.name` replaced `gen_ai.system`); the semantic-conventions package advises copying
 * unstable names rather than importing its `incubating` entry, whose exports may change in a minor release.
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 */
export const genAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  requestStopSequences: 'gen_ai.request.stop_sequences',
  requestSeed: 'gen_ai.request.seed',
  requestPresencePenalty: 'gen_ai.request.presence_penalty',
  requestFrequencyPenalty: 'gen_ai.request.frequency_penalty',
  requestStream: 'gen_ai.request.stream',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  responseTimeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
} as const;

/** The gateway's own attributes: what a GenAI span has no name for. */
export const gateway = {
  /** The configured provider name (the model prefix, `local`). */
  provider: 'interlingua.provider',
  /** `native` or `prompted`. */
  lane: 'interlingua.lane',
  /** The tool-format family of the prompted lane (`hermes`, `qwen3-coder`, …). */
  family: 'interlingua.family',
  /** The client key's name from the config; the key itself never. */
  keyName: 'interlingua.key.name',
  /** What the reply cost in USD (x-interlingua-cost-usd), when the model's price is known. */
  costUsd: 'interlingua.cost_usd',
  /**
   * What a reply that ended without the upstream's usage (a client that left, a stream that broke off) was
   * charged, as the gateway estimated it; its estimated tokens beside it. Never in the gen_ai.usage.* names,
   * which hold the upstream's own counts.
   */
  estimatedCostUsd: 'interlingua.estimated_cost_usd',
  estimatedInputTokens: 'interlingua.estimated_usage.input_tokens',
  estimatedOutputTokens: 'interlingua.estimated_usage.output_tokens',
  /** The inbound route (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`). */
  route: 'interlingua.route',
  toolCallsParsed: 'interlingua.tool_calls.parsed',
  toolCallsRejected: 'interlingua.tool_calls.rejected',
  toolCallsUnparsed: 'interlingua.tool_calls.unparsed',
  /** How the reply ended for the client (`completed`, `error`, `client-closed`). */
  outcome: 'interlingua.outcome',
} as const;

/** `gen_ai.provider.name` by provider kind (`type`): each kind's descriptor names it, and app.ts hands the lookup in. */
export type GenAiProviderNames = (type: string) => string;
