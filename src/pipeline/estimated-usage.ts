/**
 * The usage of a reply the upstream generated but whose own usage never reached the gateway (the client
 * left, the stream broke off): counted by src/pipeline/estimate-tokens.ts, priced when the model has a price,
 * and marked `estimated` so that /v1/usage, metrics and traces keep it apart from the upstream's counts.
 */
import type { ChatInput } from '../core/chat-request.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { Usage } from '../core/usage.js';
import { estimateInputTokens, estimateTextTokens } from './estimate-tokens.js';
import type { PriceTable } from './price-table.js';

/** `outputCharacters`: what the client was sent of the reply (text, reasoning, call names and arguments). */
export function estimatedUsage(input: ChatInput, model: ResolvedModel, outputCharacters: number, prices: PriceTable | undefined): Usage {
  const inputTokens = estimateInputTokens(input);
  const outputTokens = estimateTextTokens(outputCharacters);
  const usage: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, estimated: true };
  const costUsd = prices?.costOf(model, usage);
  if (costUsd !== undefined) usage.costUsd = costUsd;
  return usage;
}
