/**
 * Checks the config's `prices` and keeps them in order. A price's key is a glob over the `provider/model` of
 * the target that answered (src/pipeline/price-table.ts): a key that is a deployment's or an alias's name
 * (without a slash) never matches one, so its replies would go unpriced and uncharged without a word. Such a key is refused,
 * naming what to price instead (a deployment's targets may be different providers at different prices).
 */
import { ConfigError } from './config-error.js';
import type { TokenPrices } from './config-types.js';
import { namedModelTargets } from './model-name-targets.js';

export function normalizePrices(
  prices: Record<string, TokenPrices>,
  deployments: Record<string, { targets: { model: string }[] }> = {},
  aliases: Record<string, string> = {},
): { glob: string; prices: TokenPrices }[] {
  const problems: string[] = [];
  for (const glob of Object.keys(prices)) {
    const named = namedModelTargets(glob, { deployments, aliases });
    if (named) problems.push(`prices.${glob}: ${named.what}, and prices are keyed by provider/model: price ${named.targets}`);
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.entries(prices).map(([glob, entry]) => ({ glob, prices: entry }));
}
