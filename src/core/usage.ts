/** Token usage, normalised, with the provider's raw object kept beside it. */
export type Usage = {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
  /** The upstream's own usage object, untouched. */
  raw?: unknown;
};
