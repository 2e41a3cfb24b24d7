/**
 * What a chat may cost before it is sent, for budget reservations (src/plugins/budgets.ts): the prompt
 * counted by the same rule as estimated usage (src/pipeline/estimate-tokens.ts) plus the output the
 * client allows (`max_tokens`), or a bounded guess when it sets none, priced at the model's rates. A
 * deployment's name is priced at its dearest target, since the balancer picks one only later. Undefined
 * when the model has no price or does not resolve (the pipeline then answers as usual): nothing is reserved.
 */
import type { Deployment } from '../config/config-types.js';
import type { ChatInput } from '../core/chat-request.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import { estimateInputTokens } from './estimate-tokens.js';
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
  const outputTokens = input.maxOutputTokens ?? defaultReservedOutputTokens;
  const usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  try {
    const deployment = input.provider === undefined ? pricing.deployments?.get(input.model) : undefined;
    if (!deployment) return pricing.prices.costOf(pricing.resolve(input.model, input.provider), usage);
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
