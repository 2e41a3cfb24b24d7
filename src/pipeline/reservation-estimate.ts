/**
 * What a chat may cost before it is sent, for budget reservations (src/plugins/budgets.ts): the prompt
 * counted by the same rule as estimated usage (src/pipeline/estimate-tokens.ts) plus the output the
 * client allows (`max_tokens`), or a bounded guess when it sets none, priced at the dearest target the
 * request may reach: the model and its `fallbacks`, or a deployment's targets (the balancer picks one only
 * later) and the name's own `fallbacks`. The reply is charged at the target that answered; reserving at the
 * primary's price alone under-reserved a request whose fallback is dearer, so concurrent requests could
 * pass the budget together. Undefined when no such target has a price, or the model does not resolve (the
 * pipeline then answers as usual): nothing is reserved. An embeddings request's estimate is its input alone
 * (by the same rule), as its input is its whole cost; embeddings have no fallbacks (embedding-pipeline.ts).
 */
import type { Deployment } from '../config/config-types.js';
import { fallbackKey } from '../config/normalize-fallbacks.js';
import type { ChatInput } from '../core/chat-request.js';
import type { EmbeddingRequest } from '../core/provider-adapter.js';
import { RecentMemo } from '../core/recent-memo.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { Usage } from '../core/usage.js';
import { estimateEmbeddingInputTokens, estimateInputTokens } from './estimate-tokens.js';
import type { AccessPolicy } from './access-policy.js';
import type { PriceTable } from './price-table.js';

/**
 * The output reserved for a request without `max_tokens`: a long answer, not the model's limit (LiteLLM
 * reserves up to 16,384 and its users saw every concurrent request refused: BerriAI/litellm#27509).
 */
const defaultReservedOutputTokens = 4_096;

/** Model names come from requests: the memo of their priced targets is bounded (as the price table's is). */
const modelsRemembered = 1_000;

export type ReservationPricing = {
  prices: PriceTable;
  resolve(modelString: string, providerName?: string): ResolvedModel;
  deployments: ReadonlyMap<string, Deployment> | undefined;
  /** The config's `fallbacks`: a primary's `provider/model`, or a deployment's name → the targets after it. */
  fallbacks?: ReadonlyMap<string, readonly string[]> | undefined;
};

const noTargets: readonly ResolvedModel[] = [];

/**
 * The estimates of one app's config. The priced targets a model name may reach are found once per name
 * (resolving and matching prices cost µs); a request then prices its usage at each (one or a few) and keeps
 * the dearest, since a tiered price depends on the request's input. A target the key's `models` do not
 * allow is left out per request (the pipeline skips it), so the memo serves every key.
 */
export class ReservationEstimates {
  private readonly chatTargets = new RecentMemo<string, readonly ResolvedModel[]>(modelsRemembered);
  private readonly embeddingTargets = new RecentMemo<string, readonly ResolvedModel[]>(modelsRemembered);

  constructor(private readonly pricing: ReservationPricing) {}

  chat(input: ChatInput, access?: AccessPolicy | null): number | undefined {
    const targets = this.chatTargets.get(`${input.provider ?? ''}\u0000${input.model}`, () =>
      this.pricedTargets(input.model, input.provider, true),
    );
    if (targets.length === 0) return undefined;
    const inputTokens = estimateInputTokens(input);
    const outputTokens = reservedOutputTokens(input.maxOutputTokens);
    return this.dearestCost(targets, { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }, access);
  }

  /** An embeddings request's input at the model's input rate (embeddings have no output to price). */
  embedding(model: string, input: EmbeddingRequest['input']): number | undefined {
    const targets = this.embeddingTargets.get(model, () => this.pricedTargets(model, undefined, false));
    if (targets.length === 0) return undefined;
    const inputTokens = estimateEmbeddingInputTokens(input);
    return this.dearestCost(targets, { inputTokens, outputTokens: 0, totalTokens: inputTokens });
  }

  private dearestCost(targets: readonly ResolvedModel[], usage: Usage, access?: AccessPolicy | null): number | undefined {
    let dearest: number | undefined;
    for (const target of targets) {
      if (access && !access.allowsTarget(target)) continue;
      const cost = this.pricing.prices.costOf(target, usage);
      if (cost !== undefined && (dearest === undefined || cost > dearest)) dearest = cost;
    }
    return dearest;
  }

  /** What a request for `model` may reach (as ChatPipeline.run routes it), keeping those with a price. */
  private pricedTargets(model: string, provider: string | undefined, withFallbacks: boolean): readonly ResolvedModel[] {
    const { prices, resolve, deployments, fallbacks } = this.pricing;
    try {
      const deployment = provider === undefined ? deployments?.get(model) : undefined;
      const reached = deployment ? deployment.targets.map((target) => resolve(target.model)) : [resolve(model, provider)];
      // A deployment's fallbacks are found by its name, a model's by its provider/model (aliases resolved).
      const fallbackName = deployment ? model : fallbackKey(reached[0] as ResolvedModel);
      const after = withFallbacks ? fallbacks?.get(fallbackName) : undefined;
      if (after) for (const target of after) reached.push(resolve(target));
      const priced = reached.filter((target) => prices.knows(target));
      return priced.length === 0 ? noTargets : priced;
    } catch {
      // An unknown model or provider: the pipeline refuses it with its own error.
      return noTargets;
    }
  }
}

/**
 * The output a request allows. A negative limit is no limit where it is passed on as sent: llama-server's
 * `max_tokens` sets `n_predict`, where -1 is "infinity" (tools/server/README.md), and Ollama's `num_predict`
 * -1 the same; taken at its word, it made the estimate negative, so nothing was reserved.
 */
function reservedOutputTokens(maxOutputTokens: number | null | undefined): number {
  return typeof maxOutputTokens === 'number' && maxOutputTokens >= 0 ? maxOutputTokens : defaultReservedOutputTokens;
}
