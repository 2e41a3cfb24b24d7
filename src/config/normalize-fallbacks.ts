/** Checks the config's `fallbacks` against its providers and aliases, and keys them by the `provider/model` that fails. */
import { GatewayError } from '../core/gateway-error.js';
import { ConfigError } from './config-error.js';
import type { FallbackCondition, GatewayConfig, ProviderConfig } from './config-types.js';
import { resolveModelAddress } from './resolve-model.js';

/** Rate limits, server errors, timeouts and refused connections: what another upstream may well not have. */
export const defaultFallbackOn: readonly FallbackCondition[] = [429, '5xx', 'timeout', 'connect'];

/** The address a fallback list is found by: the model as configured, whatever alias the client used. */
export function fallbackKey(model: { provider: string; model: string }): string {
  return `${model.provider}/${model.model}`;
}

export function normalizeFallbacks(
  fallbacks: Record<string, string[]> | undefined,
  providers: Record<string, ProviderConfig>,
  aliases: Record<string, string> = {},
  deploymentNames: ReadonlySet<string> = new Set(),
): Map<string, readonly string[]> {
  const normalized = new Map<string, readonly string[]>();
  if (!fallbacks) return normalized;
  // Only what resolving a model reads: the providers and the aliases.
  const config: Pick<GatewayConfig, 'providers' | 'aliases'> = { providers, aliases: new Map(Object.entries(aliases)) };
  const problems: string[] = [];
  const resolvedKey = (modelString: string, path: string): string | undefined => {
    try {
      const { provider, model } = resolveModelAddress(config, modelString);
      return fallbackKey({ provider: provider.name, model });
    } catch (error) {
      if (!GatewayError.isInstance(error)) throw error;
      problems.push(`${path}: ${error.message}`);
      return undefined;
    }
  };
  for (const [primary, targets] of Object.entries(fallbacks)) {
    // A deployment's fallbacks are tried after all its targets, found by its name.
    const key = deploymentNames.has(primary) ? primary : resolvedKey(primary, `fallbacks.${primary}`);
    targets.forEach((target, index) => {
      const targetKey = resolvedKey(target, `fallbacks.${primary}.${index}`);
      if (key !== undefined && targetKey === key) problems.push(`fallbacks.${primary}.${index}: a model cannot fall back to itself`);
    });
    if (key !== undefined) normalized.set(key, [...(normalized.get(key) ?? []), ...targets]);
  }
  if (problems.length) throw new ConfigError(problems);
  return normalized;
}
