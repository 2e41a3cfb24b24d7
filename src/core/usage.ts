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
  /**
   * The counts are the gateway's estimate, not the upstream's: the reply ended (the client left, the stream
   * broke off) before the upstream's usage arrived (src/pipeline/estimate-tokens.ts). Absent otherwise.
   */
  estimated?: true;
  reasoningTokens?: number;
  /** The upstream's own usage object, untouched. */
  raw?: unknown;
};

/**
 * Whether the upstream counted anything: a reply it finished without any usage (an OpenAI-compatible server
 * that ignores `stream_options.include_usage`, a proxy that drops the field) has neither count.
 */
export function hasTokenCounts(usage: Usage): boolean {
  return usage.inputTokens !== undefined || usage.outputTokens !== undefined;
}
