/**
 * Checks the config's `prices` and keeps them in order. A price's key is a glob over the `provider/model` of
 * the target that answered (src/pipeline/price-table.ts): a key that is a deployment's or an alias's name
 * (without a slash) never matches one, so its replies would go unpriced and uncharged without a word. Such a key is refused,
 * naming what to price instead (a deployment's targets may be different providers at different prices), as
 * is a key whose provider is not configured.
 */
import { ConfigError } from './config-error.js';
import type { TokenPrices } from './config-types.js';
import { namedModelTargets } from './model-name-targets.js';

/** `providers`: the configured providers' names, when known (a key naming none of them is refused). */
export function normalizePrices(
  prices: Record<string, TokenPrices>,
  deployments: Record<string, { targets: { model: string }[] }> = {},
  aliases: Record<string, string> = {},
  providers?: readonly string[],
): { glob: string; prices: TokenPrices }[] {
  const problems: string[] = [];
  for (const glob of Object.keys(prices)) {
    const named = namedModelTargets(glob, { deployments, aliases });
    if (named) problems.push(`prices.${glob}: ${named.what}, and prices are keyed by provider/model: price ${named.targets}`);
    else if (providers) {
      const problem = unmatchedProvider(glob, providers);
      if (problem) problems.push(`prices.${glob}: ${problem}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.entries(prices).map(([glob, entry]) => ({ glob, prices: entry }));
}

const globCharacters = /[*?]/;

/**
 * A key whose provider part is written out (no `*` or `?`) and names no configured provider, or a bare
 * name that is neither a glob nor a provider/model, matches no reply: a typo (`openai-prod/*` for the
 * provider `openai`) left that provider's replies unpriced, and so never charged to a budget, without a word.
 */
function unmatchedProvider(glob: string, providers: readonly string[]): string | undefined {
  const slash = glob.indexOf('/');
  if (slash === -1)
    return globCharacters.test(glob)
      ? undefined
      : `prices are keyed by provider/model ('<provider>/${glob}'), and '${glob}' names no model`;
  const provider = glob.slice(0, slash);
  if (globCharacters.test(provider) || providers.includes(provider)) return undefined;
  return `no provider is named '${provider}' (configured: ${providers.join(', ') || 'none'}), so this price would match no reply`;
}
