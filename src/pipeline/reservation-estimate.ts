/**
 * What a chat may cost before it is sent, for budget reservations (src/plugins/budgets.ts): the prompt
 * counted by the same rule as estimated usage (src/pipeline/estimate-tokens.ts) plus the output the
 * client allows (`max_tokens`), or a bounded guess when it sets none, priced at the model's rates. A
 * deployment's name is priced at its dearest target, since the balancer picks one only later. Undefined
 * when the model has no price or does not resolve (the pipeline then answers as usual): nothing is reserved.
 * An embeddings request's estimate is its input alone (by the same rule), as its input is its whole cost.
 */
import type { Deployment } from '../config/config-types.js';
import type { ChatInput } from '../core/chat-request.js';
import type { EmbeddingRequest } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { Usage } from '../core/usage.js';
import { estimateEmbeddingInputTokens, estimateInputTokens } from './estimate-tokens.js';
import type { PriceTable } from './price-table.js';

/**
 * The output reserved for a request without `max_tokens`: a long answer, not the model's limit (LiteLLM
 * reserves up to 16,384 and its users saw every concurrent request refused: BerriAI/litellm#27509).
 */
const defaultReservedOutputTokens = 4_096;

export type ReservationPricing = {
  prices: PriceTable;
  resolve(modelString: string, providerName?: string): ResolvedModel;
  deployments: ReadonlyMap<string, Deployment> | undefined;
};

export function reservationEstimate(input: ChatInput, pricing: ReservationPricing): number | undefined {
  const inputTokens = estimateInputTokens(input);
  const outputTokens = reservedOutputTokens(input.maxOutputTokens);
  return dearestCost(input.model, input.provider, { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }, pricing);
}

/**
 * The output a request allows. A negative limit is no limit where it is passed on as sent: llama-server's
 * `max_tokens` sets `n_predict`, where -1 is "infinity" (tools/server/README.md), and Ollama's `num_predict`
 * -1 the same; taken at its word, it made the estimate negative, so nothing was reserved.
 */
function reservedOutputTokens(maxOutputTokens: number | null | undefined): number {
  return typeof maxOutputTokens === 'number' && maxOutputTokens >= 0 ? maxOutputTokens : defaultReservedOutputTokens;
}

/** An embeddings request's input at the model's input rate (embeddings have no output to price). */
export function embeddingReservationEstimate(
  model: string,
  input: EmbeddingRequest['input'],
  pricing: ReservationPricing,
): number | undefined {
  const inputTokens = estimateEmbeddingInputTokens(input);
  return dearestCost(model, undefined, { inputTokens, outputTokens: 0, totalTokens: inputTokens }, pricing);
}

/** `usage` priced at the model's rates, or at a deployment's dearest target's. */
function dearestCost(model: string, provider: string | undefined, usage: Usage, pricing: ReservationPricing): number | undefined {
  try {
    const deployment = provider === undefined ? pricing.deployments?.get(model) : undefined;
    if (!deployment) return pricing.prices.costOf(pricing.resolve(model, provider), usage);
    let dearest: number | undefined;
    for (const target of deployment.targets) {
      const cost = pricing.prices.costOf(pricing.resolve(target.model), usage);
      if (cost !== undefined && (dearest === undefined || cost > dearest)) dearest = cost;
    }
    return dearest;
  } catch {
    // An unknown model or provider: the pipeline refuses it with its own error.
    return undefined;
  }
}
