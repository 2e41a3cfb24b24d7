/**
 * Checks the config's `prices` and keeps them in order. A price's key is a glob over the `provider/model` of
 * the target that answered (src/pipeline/price-table.ts): a key that is a deployment's or an alias's name
 * (without a slash) never matches one, so its replies would go unpriced and uncharged without a word. Such a key is refused,
 * naming what to price instead (a deployment's targets may be different providers at different prices).
 */
import { ConfigError } from './config-error.js';
import type { TokenPrices } from './config-types.js';

export function normalizePrices(
  prices: Record<string, TokenPrices>,
  deployments: Record<string, { targets: { model: string }[] }> = {},
  aliases: Record<string, string> = {},
): { glob: string; prices: TokenPrices }[] {
  const problems: string[] = [];
  for (const glob of Object.keys(prices)) {
    // A name with a slash may also be a real provider/model address (reached on the /{provider}/v1/… routes).
    if (glob.includes('/')) continue;
    const deployment = Object.hasOwn(deployments, glob) ? deployments[glob] : undefined;
    if (deployment) {
      const targets = deployment.targets.map((target) => `'${target.model}'`).join(', ');
      problems.push(`prices.${glob}: '${glob}' is a deployment, and prices are keyed by provider/model: price its targets (${targets})`);
    } else if (Object.hasOwn(aliases, glob)) {
      problems.push(`prices.${glob}: '${glob}' is an alias, and prices are keyed by provider/model: price its target ('${aliases[glob]}')`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.entries(prices).map(([glob, entry]) => ({ glob, prices: entry }));
}
