/** Token usage, normalised, with the provider's raw object kept beside it. */
export type Usage = {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /** Input tokens read from the provider's prompt cache (part of inputTokens). */
  cachedInputTokens?: number;
  /** Input tokens written to the provider's prompt cache (part of inputTokens; Anthropic's cache_creation_input_tokens). */
  cacheWriteInputTokens?: number;
  /** What the reply cost in USD, from the price table (src/pipeline/price-table.ts); absent when no price is known. */
  costUsd?: number;
  reasoningTokens?: number;
  /** The upstream's own usage object, untouched. */
  raw?: unknown;
};
