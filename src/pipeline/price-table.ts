/**
 * What a reply cost: USD per million tokens for each `provider/model`, from the config's `prices` (first
 * matching glob) over the data of `@pydantic/genai-prices` (bundled with the package, never fetched at
 * run time), priced separately for uncached input, cache reads, cache writes and output.
 *
 * The package's own `calcPrice` costs about 30 µs a call (it matches the model against every pattern
 * each time), so the rates are looked up once per model and kept; a model whose prices depend on the
 * date (the package's conditional prices) is the exception and asks the package each time.
 */
import { calcPrice } from '@pydantic/genai-prices';
import type { TokenPrices } from '../config/config-types.js';
import { globToRegExp } from '../config/glob-pattern.js';
import { RecentMemo } from '../core/recent-memo.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { Usage } from '../core/usage.js';

/** A price the package gives either flat or by tier: the tier is chosen by the request's whole input. */
type PackagePrice = number | { base: number; tiers: { start: number; price: number }[] };

type PackageRates = {
  input_mtok?: PackagePrice;
  output_mtok?: PackagePrice;
  cache_read_mtok?: PackagePrice;
  cache_write_mtok?: PackagePrice;
};

/** How a model is priced: fixed rates (config), the package's rates (maybe tiered), the package per call, or not at all. */
type Pricing =
  | { type: 'rates'; rates: TokenPrices }
  | { type: 'package-rates'; rates: PackageRates }
  | { type: 'package-call'; providerId: string; model: string }
  | { type: 'unknown' };

/**
 * The package's provider ids for the kinds whose model names are the provider's own: Vertex AI's
 * (`gemini-2.5-pro`, `claude-sonnet-4-5@20250929`) and Bedrock's model ids (`anthropic.claude-…-v1:0`,
 * `us.…` inference profiles) included. Not `azure-openai`: its model is the operator's deployment name,
 * which need not name the model behind it, and a guessed price is worse than none.
 */
const packageProviders: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'google',
  vertex: 'google',
  bedrock: 'aws',
};

/** Models come from requests: the memo is bounded. */
const modelsRemembered = 1_000;

const unknown: Pricing = { type: 'unknown' };

export class PriceTable {
  private readonly overrides: readonly { pattern: RegExp; prices: TokenPrices }[];
  private readonly pricings = new RecentMemo<string, Pricing>(modelsRemembered);

  constructor(configured: readonly { glob: string; prices: TokenPrices }[] = []) {
    this.overrides = configured.map(({ glob, prices }) => ({ pattern: globToRegExp(glob), prices }));
  }

  /** Whether replies of this model can be priced (decided once per model). */
  knows(model: ResolvedModel): boolean {
    return this.pricingOf(model).type !== 'unknown';
  }

  /** The reply's cost in USD, or undefined when the model has no known price or the usage has no counts. */
  costOf(model: ResolvedModel, usage: Usage): number | undefined {
    if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
    const pricing = this.pricingOf(model);
    switch (pricing.type) {
      case 'unknown':
        return undefined;
      case 'rates':
        return costWithRates(pricing.rates, usage);
      case 'package-rates':
        return costWithRates(ratesAt(pricing.rates, usage.inputTokens ?? 0), usage);
      case 'package-call': {
        const result = calcPrice(packageUsage(usage), pricing.model, { providerId: pricing.providerId });
        return result ? result.total_price : undefined;
      }
    }
  }

  private pricingOf(model: ResolvedModel): Pricing {
    return this.pricings.get(`${model.provider}/${model.model}`, () => this.findPricing(model));
  }

  private findPricing(model: ResolvedModel): Pricing {
    const address = `${model.provider}/${model.model}`;
    const override = this.overrides.find(({ pattern }) => pattern.test(address));
    if (override) return { type: 'rates', rates: override.prices };
    const providerId = packageProviders[model.providerType];
    if (providerId === undefined) return unknown;
    const found = calcPrice({ input_tokens: 1 }, model.model, { providerId });
    if (!found) return unknown;
    const prices: unknown = found.model.prices;
    // A list is the package's date-conditional prices: ask it each time, with today's date.
    if (Array.isArray(prices)) return { type: 'package-call', providerId, model: model.model };
    return { type: 'package-rates', rates: prices as PackageRates };
  }
}

/** The package's rates for a request of this many input tokens (a tier applies to the whole request once crossed). */
function ratesAt(rates: PackageRates, inputTokens: number): TokenPrices {
  const at = (price: PackagePrice | undefined): number | undefined => {
    if (price === undefined || typeof price === 'number') return price;
    let chosen = price.base;
    for (const tier of price.tiers) if (inputTokens > tier.start) chosen = tier.price;
    return chosen;
  };
  const chosen: TokenPrices = { input: at(rates.input_mtok) ?? 0, output: at(rates.output_mtok) ?? 0 };
  const cacheRead = at(rates.cache_read_mtok);
  const cacheWrite = at(rates.cache_write_mtok);
  if (cacheRead !== undefined) chosen.cacheRead = cacheRead;
  if (cacheWrite !== undefined) chosen.cacheWrite = cacheWrite;
  return chosen;
}

/** Cache reads and writes are parts of the input count: the rest is uncached input. */
function costWithRates(rates: TokenPrices, usage: Usage): number {
  const input = usage.inputTokens ?? 0;
  const cacheRead = usage.cachedInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  const uncached = Math.max(0, input - cacheRead - cacheWrite);
  const microDollars =
    uncached * rates.input +
    cacheRead * (rates.cacheRead ?? rates.input) +
    cacheWrite * (rates.cacheWrite ?? rates.input) +
    (usage.outputTokens ?? 0) * rates.output;
  return microDollars / 1_000_000;
}

/** The package's usage shape: `input_tokens` is the whole input, cache reads and writes parts of it. */
function packageUsage(usage: Usage): {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
} {
  const shaped: { input_tokens: number; output_tokens: number; cache_read_tokens?: number; cache_write_tokens?: number } = {
    input_tokens: usage.inputTokens ?? 0,
    output_tokens: usage.outputTokens ?? 0,
  };
  if (usage.cachedInputTokens !== undefined) shaped.cache_read_tokens = usage.cachedInputTokens;
  if (usage.cacheWriteInputTokens !== undefined) shaped.cache_write_tokens = usage.cacheWriteInputTokens;
  return shaped;
}
